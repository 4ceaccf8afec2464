#!/usr/bin/env node
// What a newcomer runs, on whatever Node runs this script: `npm start` (build, migrate, serve) until
// /readyz answers 200, then SIGTERM and a clean exit. .ci/run runs it on the machine's Node before
// the suite moves to Node 24 (native modules are built for one Node at a time).
// Prints one line; exits 1 when the server does not get ready within ten minutes or exits badly.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'edupass-start-'));
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});

const started = Date.now();
let output = '';
// Its own process group: npm, the shell and the server all get the signal.
const child = spawn('npm', ['start'], {
  cwd: root,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, PORT: String(port), DATABASE_URL: join(scratch, 'edupass.db'), LOG_LEVEL: 'warn' },
});
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk) => {
    output += chunk.toString();
  });
}
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
let running = true;
exited.then(() => {
  running = false;
});

const fail = (why) => {
  if (running) process.kill(-child.pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  console.log(`npm start on Node ${process.version}: FAILED, ${why}\n${output.slice(-3000)}`);
  process.exit(1);
};

let ready = false;
while (!ready && running && Date.now() - started < 600_000) {
  ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
    (r) => r.status === 200,
    () => false,
  );
  if (!ready) await new Promise((r) => setTimeout(r, 500));
}
if (!ready) fail(running ? 'not ready after ten minutes' : 'it exited before it was ready');
const readyAfter = Math.round((Date.now() - started) / 1000);
// The server itself gets SIGTERM, as from a process manager; npm then ends with its exit code.
const server = spawnSync('pgrep', ['-g', String(child.pid), '-f', '^node packages/server/dist/main\\.js'], {
  encoding: 'utf8',
});
const serverPid = Number(server.stdout.trim().split('\n')[0]);
if (!serverPid) fail('no server process found under npm start');
process.kill(serverPid, 'SIGTERM');
const { code } = await exited;
if (code !== 0) fail(`exit code ${code} after SIGTERM`);
rmSync(scratch, { recursive: true, force: true });
console.log(`npm start on Node ${process.version}: built and ready in ${readyAfter} s, stopped cleanly`);

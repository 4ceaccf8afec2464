/**
 * The real server in a child process (the bundle `npm start` runs, built the same way), for tests
 * that kill it: crash recovery, durability of acknowledged writes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { SERVER_BUNDLE } from '../../../scripts/server-bundle.mjs';

const serverDir = resolve(import.meta.dirname, '..', '..', 'server');

/**
 * Bundles main.ts under the server package (so its dependencies resolve as for `npm start`: the
 * package's own node_modules, where npm may place one, then the repository's) and answers the file;
 * remove its dir when done.
 */
export const bundleServer = async (): Promise<{ file: string; remove(): void }> => {
  const dir = join(serverDir, '.tmp', `child-server-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'main.mjs');
  await build({
    entryPoints: [join(serverDir, 'src', 'main.ts')],
    outfile: file,
    ...SERVER_BUNDLE,
    logLevel: 'silent',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
};

/** Whether nothing listens on `port` now (a listen that succeeds, closed at once). */
const canListen = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });

/**
 * Ports handed out for a process to listen on later, so none is taken in between: below the kernel's
 * ephemeral range (32768–60999 on Linux), which every `listen(0)` and outgoing connection draws
 * from, and in a block of 1,000 of each Vitest worker's own, so two workers never pick the same one.
 * A port taken from the ephemeral range (a `listen(0)` probe closed again) could be given to another
 * server of a parallel test before the child listened, and the child's health poll would then reach
 * that server.
 */
const PORT_BLOCKS = { first: 20_000, size: 1_000, count: 12 };
const worker = Number(process.env.VITEST_POOL_ID ?? process.pid) % PORT_BLOCKS.count;
let nextPort = Math.floor(Math.random() * PORT_BLOCKS.size);

export const freePort = async (): Promise<number> => {
  for (let tries = 0; tries < PORT_BLOCKS.size; tries++) {
    const port = PORT_BLOCKS.first + worker * PORT_BLOCKS.size + (nextPort++ % PORT_BLOCKS.size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in block ${worker} (${PORT_BLOCKS.first + worker * PORT_BLOCKS.size}…)`);
};

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** SIGKILL: no shutdown hook runs, as in a crash or an OOM kill. */
  kill(): Promise<void>;
}

/** Whether the process has ended: with an exit code, or by a signal (which leaves `exitCode` null). */
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * `port`: a given one (a restart behind a proxy that knows it), else a free one. `nodeArgs`: flags for
 * Node itself (the benches' `--cpu-prof`, which NODE_OPTIONS does not take). `logFile`: where the
 * server's stdout (its log) goes, appended, as a deployment keeps it; else nowhere. `launcher`: a
 * command Node is started through, given Node's command line after its own (a wrapper that sets
 * something of the process, as a process manager does, then execs it); else Node directly.
 */
export const startChildServer = async (
  file: string,
  env: Record<string, string>,
  port?: number,
  nodeArgs: string[] = [],
  logFile?: string,
  launcher: string[] = [],
): Promise<ChildServer> => {
  port ??= await freePort();
  const [command = process.execPath, ...args] = [...launcher, process.execPath, ...nodeArgs, file];
  const child = spawn(command, args, {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', logFile === undefined ? 'ignore' : openSync(logFile, 'a'), 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  // A fresh database is migrated first: on a loaded 2-core machine that took over a minute.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited(child)) throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    process: child,
    kill: () =>
      new Promise((done) => {
        if (exited(child)) return done();
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  };
};

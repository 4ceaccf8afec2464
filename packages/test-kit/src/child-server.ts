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

export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });

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
 * server's stdout (its log) goes, appended, as a deployment keeps it; else nowhere.
 */
export const startChildServer = async (
  file: string,
  env: Record<string, string>,
  port?: number,
  nodeArgs: string[] = [],
  logFile?: string,
): Promise<ChildServer> => {
  port ??= await freePort();
  const child = spawn(process.execPath, [...nodeArgs, file], {
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

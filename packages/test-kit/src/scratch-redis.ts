/**
 * A redis-server of the test's own on a free loopback port, which the test may stop and start again
 * (same port, nothing kept) to play an outage. Never the shared Redis other tests use.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './child-server.ts';

export interface ScratchRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: as a crash, nothing flushed) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>;
}

export const hasRedisServer = () => spawnSync('redis-server', ['--version']).status === 0;

const answers = async (url: string) => {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
};

export const startScratchRedis = async (): Promise<ScratchRedis> => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 20_000;
    while (!(await answers(url))) {
      if (child.exitCode !== null) throw new Error(`redis-server on ${port} exited (${child.exitCode})`);
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = () =>
    new Promise<void>((done) => {
      const running = child;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return done();
      running.once('exit', () => done());
      running.kill('SIGKILL');
    });
  await start();
  return {
    url,
    port,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

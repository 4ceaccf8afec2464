/**
 * The log as deployed (http/log-destination.ts): the server started as `npm start` starts it, at
 * LOG_LEVEL=info with its stdout to a file, writes its lines asynchronously and in batches; on SIGTERM
 * every line of every request answered is in the file once the process has exited, the shutdown's own
 * line too; and a lone request's line, far short of a batch, is in the file soon after it is answered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChildServer } from '@edupass/test-kit/child-server';
import { useChildServerDatabase } from '@edupass/test-kit/usage-reports';
import { expect, it } from 'vitest';

const child = useChildServerDatabase();
const REQUESTS = 300;

/** The bundled server at LOG_LEVEL=info, its stdout appended to a file beside the bundle: one for the file. */
const logging = async () => {
  const logFile = join(child.bundle.file, '..', 'server.log');
  if (child.server === undefined) {
    child.server = await startChildServer(
      child.bundle.file,
      { DATABASE_URL: child.database.url, LOG_LEVEL: 'info' },
      undefined,
      [],
      logFile,
    );
  }
  return { server: child.server, logFile };
};

it("writes a quiet server's lines soon, not when a batch has gathered", async () => {
  const { server, logFile } = await logging();
  expect((await fetch(`${server.url}/healthz?lone=1`)).status).toBe(200);
  // Well within the poll's 15 s: the destination writes what it holds every 200 ms.
  await expect
    .poll(() => readFileSync(logFile, 'utf8').includes('"url":"/healthz?lone=1"'), { timeout: 15_000 })
    .toBe(true);
}, 120_000);

it('writes every request line before the process exits on SIGTERM', async () => {
  const { server, logFile } = await logging();
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, (_, n) => fetch(`${server.url}/healthz?n=${n}`).then((r) => r.status)),
  );
  expect(answers.every((status) => status === 200)).toBe(true);
  const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
  server.process.kill('SIGTERM');
  expect(await exited).toBe(0);

  const lines = readFileSync(logFile, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; reqId?: string; req?: { url: string }; res?: unknown });
  const completed = lines.filter((l) => l.msg === 'request completed' && l.req?.url.startsWith('/healthz?n='));
  expect(completed.length).toBe(REQUESTS);
  expect(new Set(completed.map((l) => l.req?.url)).size).toBe(REQUESTS);
  expect(new Set(completed.map((l) => l.reqId)).size).toBe(REQUESTS);
  expect(lines.some((l) => l.msg === 'shutting down')).toBe(true);
  child.server = undefined;
}, 300_000);

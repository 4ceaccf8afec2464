/**
 * The log as deployed (http/log-destination.ts): the server started as `npm start` starts it, at
 * LOG_LEVEL=info with its stdout to a file, writes its lines asynchronously; on SIGTERM every line of
 * every request answered is in the file once the process has exited, the shutdown's own line too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChildServer } from '@edupass/test-kit/child-server';
import { useChildServerDatabase } from '@edupass/test-kit/usage-reports';
import { expect, it } from 'vitest';

const child = useChildServerDatabase();
const REQUESTS = 300;

it('writes every request line before the process exits on SIGTERM', async () => {
  const logFile = join(child.bundle.file, '..', 'server.log');
  child.server = await startChildServer(
    child.bundle.file,
    { DATABASE_URL: child.database.url, LOG_LEVEL: 'info' },
    undefined,
    [],
    logFile,
  );
  const server = child.server;
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
}, 300_000);

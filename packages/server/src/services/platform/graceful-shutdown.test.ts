/**
 * SIGTERM under load: the server stops taking new requests, finishes the ones it has, writes what
 * the ingestion writer holds and exits 0. Every acknowledged event is there after a restart, no
 * request is cut off mid-answer, and a request the server turned away says so (503 E_10).
 *
 * "Cut off" is judged by the server's own log: every report it logged as read it logged as answered,
 * and every answer reached its client. A connection the server never read from (refused once the
 * port is closed, or reset by the kernel when it was still waiting to be accepted as the port closed)
 * fails on the client, which is what such a client sees from any server.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReportPayload } from '@edupass/protocol';
import { startChildServer } from '@edupass/test-kit/child-server';
import { requestLines } from '@edupass/test-kit/request-log';
import { reportBatches, storedEventIds, useChildServerDatabase } from '@edupass/test-kit/usage-reports';
import { expect, it } from 'vitest';

const child = useChildServerDatabase();

const BATCHES = 300;
const PER_BATCH = 20;
const batches = reportBatches(BATCHES, PER_BATCH, 'drain');

type Outcome = { status: number; code?: string } | { error: string };

/** How a connection fails that the server never read a request from (undici's codes). */
const NEVER_READ = ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'];

/** How many reports the server logged as read (a line at debug), and how many of them as answered. */
const reportsInLog = (file: string) => {
  const lines = requestLines(readFileSync(file, 'utf8'), (url) => url.startsWith('/report/'));
  const count = (msg: string) => lines.filter((line) => line.msg === msg).length;
  return { read: count('incoming request'), answered: count('request completed') };
};

/** The answer, or how the connection failed (NEVER_READ, once the server's log shows it read none of these). */
const send = (url: string, body: ReportPayload): Promise<Outcome> =>
  fetch(`${url}/report/edupass`, {
    method: 'POST',
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  }).then(
    async (r) => ({
      status: r.status,
      code: r.status === 204 ? undefined : ((await r.json()) as { error_code: string }).error_code,
    }),
    (error: Error & { cause?: { code?: string } }) => ({ error: error.cause?.code ?? error.name }),
  );

it('drains in-flight requests and the ingestion writer on SIGTERM: nothing acknowledged is lost', async () => {
  const env = { DATABASE_URL: child.database.url, PRODUCTS: 'edupass:edupass' };
  const log = join(dirname(child.bundle.file), 'drain.log');
  child.server = await startChildServer(child.bundle.file, { ...env, LOG_LEVEL: 'debug' }, undefined, [], log);
  const first = child.server;
  const outcomes: Outcome[] = new Array(BATCHES);
  const sendAll = (from: number, to: number) =>
    Promise.all(
      batches.slice(from, to).map(async (body, i) => {
        outcomes[from + i] = await send(first.url, body);
      }),
    );
  await sendAll(0, BATCHES / 4);
  const rest = sendAll(BATCHES / 4, BATCHES);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const exited = new Promise<number | null>((resolve) => first.process.once('exit', (code) => resolve(code)));
  first.process.kill('SIGTERM');
  await rest;
  expect(await exited).toBe(0);

  const acknowledged = outcomes.flatMap((o, n) => ('status' in o && o.status === 204 ? [n] : []));
  const turnedAway = outcomes.filter((o) => 'status' in o && o.status !== 204);
  const failed = outcomes.filter((o): o is { error: string } => 'error' in o);
  expect(acknowledged.length).toBeGreaterThanOrEqual(BATCHES / 4);
  // Turned away with the catalogue's 503, or refused before reaching it; never cut off mid-request.
  for (const o of turnedAway) expect(o).toEqual({ status: 503, code: 'E_10' });
  console.log(
    JSON.stringify({
      acknowledged: acknowledged.length,
      turnedAway: turnedAway.length,
      failed: failed.map((o) => o.error),
    }),
  );
  const inLog = reportsInLog(log);
  expect(inLog.answered, 'reports the server read and never answered').toBe(inLog.read);
  expect(acknowledged.length + turnedAway.length, 'answers the server wrote that no client read').toBe(inLog.answered);
  for (const o of failed) expect(NEVER_READ).toContain(o.error);

  child.server = await startChildServer(child.bundle.file, env);
  const stored = await storedEventIds(child.database.url);
  const lost = acknowledged.flatMap((n) => batches[n]!.data.b.map((e) => e.i)).filter((id) => !stored.has(id));
  expect(lost).toEqual([]);
}, 120_000);

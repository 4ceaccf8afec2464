/**
 * SIGTERM under load: the server stops taking new requests, finishes the ones it has, writes what
 * the ingestion writer holds and exits 0. Every acknowledged event is there after a restart, no
 * request is cut off mid-answer, and a request the server turned away says so (503 E_10).
 */
import type { ReportPayload } from '@edupass/protocol';
import { startChildServer } from '@edupass/test-kit/child-server';
import { reportBatches, storedEventIds, useChildServerDatabase } from '@edupass/test-kit/usage-reports';
import { expect, it } from 'vitest';

const child = useChildServerDatabase();

const BATCHES = 300;
const PER_BATCH = 20;
const batches = reportBatches(BATCHES, PER_BATCH, 'drain');

type Outcome = { status: number; code?: string } | { error: string };

/** The answer, or how the connection failed (refused: never reached the server; reset: cut off). */
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
  child.server = await startChildServer(child.bundle.file, env);
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
  for (const o of failed) expect(o.error).toBe('ECONNREFUSED');

  child.server = await startChildServer(child.bundle.file, env);
  const stored = await storedEventIds(child.database.url);
  const lost = acknowledged.flatMap((n) => batches[n]!.data.b.map((e) => e.i)).filter((id) => !stored.has(id));
  expect(lost).toEqual([]);
}, 120_000);

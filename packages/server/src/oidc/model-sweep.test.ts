/**
 * What the provider keeps expires with its lifetime: the hourly sweep deletes rows past their
 * expiry and keeps the rest, and an expired row reads as absent before the sweep comes.
 */

import { useTestServer } from '@edupass/test-kit/harness';
import { expect, it } from 'vitest';
import { sweepOnce } from '../services/platform/housekeeping.ts';
import { findModel } from '../store/identity/oidc-models.ts';
import { upsertModel } from '../store/identity/oidc-writes.ts';

const HOUR = 3_600_000;
let offset = 0;
const { server } = useTestServer({}, { now: () => Date.now() + offset });

const store = (id: string, expiresInMs: number) =>
  upsertModel(server.app.ctx.db, {
    model: 'Session',
    id,
    payload: JSON.stringify({ uid: `uid-${id}` }),
    grantId: null,
    uid: `uid-${id}`,
    userCode: null,
    accountId: null,
    clientId: null,
    expiresAt: server.app.ctx.now() + expiresInMs,
  });

const stored = async () =>
  (await server.app.ctx.db.selectFrom('oidc_models').select('id').where('model', '=', 'Session').execute()).map(
    (row) => row.id,
  );

it('the sweep deletes expired provider rows and keeps live ones; an expired row reads as absent', async () => {
  await store('short', HOUR);
  await store('long', 48 * HOUR);
  offset = 2 * HOUR;
  const ctx = server.app.ctx;
  expect(await findModel(ctx.db, 'Session', { column: 'uid', value: 'uid-short' }, ctx.now())).toBeUndefined();
  expect(await findModel(ctx.db, 'Session', { column: 'uid', value: 'uid-long' }, ctx.now())).toBeDefined();
  // The server's own first sweep may still hold the lock: wait for ours to run.
  await expect.poll(() => sweepOnce(ctx), { timeout: 20_000 }).toBe(true);
  expect(await stored()).toEqual(['long']);
});

/**
 * The hourly sweep's backlog: how fast the server's own sweep (`eraseDueAccounts`, the code the hourly
 * housekeeping runs) erases accounts whose deletion grace has ended, at each size. Each batch of
 * pupils (targets.ts: the same rows each at both sizes) is made due at once by SQL, then one sweep
 * erases it, timed in this process on a context of the server's database. The per-account time of each
 * batch is a sample; the large size's rate an hour is printed beside a day's deletions at a high churn.
 */
import pg from 'pg';
import { createContext } from '../../packages/server/src/context.ts';
import { eraseDueAccounts } from '../../packages/server/src/services/account/deletion.ts';
import { log } from './log.ts';
import type { Site } from './paths.ts';
import type { PathResult } from './report.ts';
import { configFor } from './server.ts';
import { DUE_BATCHES, DUE_PER_BATCH } from './targets.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as Parameters<
  typeof createContext
>[1];

/** A day's deletions at a high churn: every account deleted once a year, spread over its days. */
export const dayOfDeletions = (accounts: number) => Math.ceil(accounts / 365);

/** Erases one batch on one database; answers ms per account. */
const sweepBatch = async (databaseUrl: string, ids: number[]) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ctx = await createContext(configFor(databaseUrl), silent);
  try {
    const now = Date.now();
    await client.query('update users set erase_at = $1 where id = any($2::bigint[])', [now - 1, ids]);
    const started = performance.now();
    const { accounts } = await eraseDueAccounts(ctx, now);
    const ms = performance.now() - started;
    if (accounts !== ids.length) throw new Error(`the sweep erased ${accounts} accounts of ${ids.length} due`);
    return ms / accounts;
  } finally {
    await ctx.close();
    await client.end();
  }
};

/** Every batch on both databases, small and large in turn; the per-account times as a path's samples. */
export const measureSweep = async (small: Site, large: Site) => {
  const result: PathResult = { name: `sweep: erase a due account (batches of ${DUE_PER_BATCH})`, small: [], large: [] };
  for (let b = 0; b < DUE_BATCHES; b++) {
    const order = b % 2 === 0 ? ([small, large] as const) : ([large, small] as const);
    for (const site of order)
      result[site === small ? 'small' : 'large'].push(await sweepBatch(site.databaseUrl, site.targets.due[b] ?? []));
  }
  const perHour = Math.floor(3_600_000 / Math.max(...result.large));
  const day = dayOfDeletions(large.layout.users);
  log(
    `sweep: ${Math.max(...result.large).toFixed(1)} ms an account at most (large) → ${perHour.toLocaleString('en')} an hour; ` +
      `a day's deletions at one account in 365 a day: ${day.toLocaleString('en')} → ${perHour >= day ? 'within the hour' : '**not** within the hour'}`,
  );
  return { result, perHour, day };
};

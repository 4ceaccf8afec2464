/**
 * The yearly report's figures read from rows kept after erasure (data-rights requests), each one query
 * over a window of unix ms through an index on `created_at` or `closed_at` (services/admin/yearly-report.ts).
 * The other figures are counters (report-counters.ts).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;
export interface Window {
  from: number;
  to: number;
}

const counted = (rows: { key: string | null; n: number | string | bigint }[]) =>
  Object.fromEntries(rows.map((r) => [r.key ?? '', Number(r.n)]));

const n = sql<number>`count(*)`;

/** Requests made in the window, by kind. */
export const requestsMade = async (db: Db, { from, to }: Window) =>
  counted(
    await db
      .selectFrom('data_requests')
      .select(['kind as key', n.as('n')])
      .where('created_at', '>=', from)
      .where('created_at', '<=', to)
      .groupBy('kind')
      .execute(),
  );

/** Requests answered (done or refused) in the window, each with its dates. */
export const requestsAnswered = (db: Db, { from, to }: Window) =>
  db
    .selectFrom('data_requests')
    .select(['kind', 'status', 'created_at', 'due_at', 'closed_at'])
    .where('status', 'in', ['done', 'refused'])
    .where('closed_at', '>=', from)
    .where('closed_at', '<=', to)
    .execute();

/** Requests due before the window's end and not answered by then (the open ones and those answered later, by `closed_at`). */
export const requestsOpenLateAt = async (db: Db, { to }: Window) =>
  Number(
    (
      await db
        .selectFrom('data_requests')
        .select(n.as('n'))
        .where('created_at', '<=', to)
        .where('due_at', '<', to)
        .where((eb) => eb.or([eb('closed_at', 'is', null), eb('closed_at', '>', to)]))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const deletionsClosed = async (db: Db, { from, to }: Window, status: 'done' | 'cancelled') =>
  counted(
    await db
      .selectFrom('data_requests')
      .select(['requested_by as key', n.as('n')])
      .where('kind', '=', 'deletion')
      .where('status', '=', status)
      .where('closed_at', '>=', from)
      .where('closed_at', '<=', to)
      .groupBy('requested_by')
      .execute(),
  );

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

/**
 * Requests closed in the window (done, refused or cancelled), summed in the database: one row per kind,
 * status, who asked and whether it was answered after its due date, with how many, their total and
 * longest time from request to answer (ms). At most a few dozen rows at any size.
 */
export const requestsClosed = async (db: Db, { from, to }: Window) =>
  (
    await db
      .selectFrom('data_requests')
      .select([
        'kind',
        'status',
        'requested_by',
        sql<boolean>`closed_at > due_at`.as('late'),
        n.as('n'),
        sql<number>`sum(closed_at - created_at)`.as('took'),
        sql<number>`max(closed_at - created_at)`.as('longest'),
      ])
      .where('closed_at', '>=', from)
      .where('closed_at', '<=', to)
      .groupBy(['kind', 'status', 'requested_by', sql`closed_at > due_at`])
      .execute()
  ).map((row) => ({
    kind: row.kind,
    status: row.status,
    requested_by: row.requested_by,
    late: Boolean(Number(row.late)),
    n: Number(row.n),
    took: Number(row.took),
    longest: Number(row.longest),
  }));

/**
 * Requests made by the window's end, due before it and not answered by then: those still open (a
 * partial index of the open requests by due date) and those answered only after it (by `closed_at`).
 */
export const requestsOpenLateAt = async (db: Db, { to }: Window) => {
  const count = async (closed: 'open' | 'after') =>
    Number(
      (
        await db
          .selectFrom('data_requests')
          .select(n.as('n'))
          .where('due_at', '<', to)
          .where('created_at', '<=', to)
          .where((eb) => (closed === 'open' ? eb('closed_at', 'is', null) : eb('closed_at', '>', to)))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const [open, after] = await Promise.all([count('open'), count('after')]);
  return open + after;
};

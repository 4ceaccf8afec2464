/** The yearly report's counts, each one query over a window of unix ms (services/admin/yearly-report.ts). */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;
export interface Window {
  from: number;
  to: number;
}

const MINOR_BANDS = ['under_8', '8_13', '14_15', '16_17'] as const;

const counted = (rows: { key: string | null; n: number | string | bigint }[]) =>
  Object.fromEntries(rows.map((r) => [r.key ?? '', Number(r.n)]));

const n = sql<number>`count(*)`;

/** Rows of `table` made in the window, counted by `column`'s value. */
const madeInWindowBy = async (db: Db, table: keyof Database, column: string, { from, to }: Window) =>
  counted(
    (
      await sql<{ key: string | null; n: number }>`select ${sql.ref(column)} as key, count(*) as n from ${sql.table(
        table,
      )} where created_at >= ${from} and created_at <= ${to} group by ${sql.ref(column)}`.execute(db)
    ).rows,
  );

export const minorsAtYearEnd = async (db: Db, { to }: Window) =>
  counted(
    await db
      .selectFrom('users')
      .select(['age_band as key', n.as('n')])
      .where('age_band', 'in', MINOR_BANDS)
      .where('created_at', '<=', to)
      .groupBy('age_band')
      .execute(),
  );

export const minorsOpened = async (db: Db, { from, to }: Window) =>
  Number(
    (
      await db
        .selectFrom('users')
        .select(n.as('n'))
        .where('age_band', 'in', MINOR_BANDS)
        .where('created_at', '>=', from)
        .where('created_at', '<=', to)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const consentDecisions = (db: Db, window: Window) => madeInWindowBy(db, 'guardian_consents', 'decision', window);

export const requestsMade = (db: Db, window: Window) => madeInWindowBy(db, 'data_requests', 'kind', window);

/** Requests answered (done or refused) in the window, each with its dates. */
export const requestsAnswered = (db: Db, { from, to }: Window) =>
  db
    .selectFrom('data_requests')
    .select(['kind', 'status', 'created_at', 'due_at', 'closed_at'])
    .where('status', 'in', ['done', 'refused'])
    .where('closed_at', '>=', from)
    .where('closed_at', '<=', to)
    .execute();

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

export const readsByRole = (db: Db, window: Window) => madeInWindowBy(db, 'edu_access_log', 'reader_role', window);

export const readFigures = async (db: Db, { from, to }: Window) => {
  const row = await db
    .selectFrom('edu_access_log')
    .select([
      sql<number>`count(distinct subject_id)`.as('people'),
      sql<number>`sum(case when reader_role = 'operator' and reason is not null then 1 else 0 end)`.as('minors'),
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .executeTakeFirstOrThrow();
  return { people: Number(row.people), operatorReadsOfMinors: Number(row.minors ?? 0) };
};

export const approvalFigures = async (db: Db, { from, to }: Window) => {
  const row = await db
    .selectFrom('staff_access_approvals')
    .select([
      sql<number>`sum(case when created_at >= ${from} and created_at <= ${to} then 1 else 0 end)`.as('requested'),
      sql<number>`sum(case when status = 'approved' and decided_at >= ${from} and decided_at <= ${to} then 1 else 0 end)`.as(
        'approved',
      ),
      sql<number>`sum(case when status = 'refused' and decided_at >= ${from} and decided_at <= ${to} then 1 else 0 end)`.as(
        'refused',
      ),
    ])
    .executeTakeFirstOrThrow();
  return {
    requested: Number(row.requested ?? 0),
    approved: Number(row.approved ?? 0),
    refused: Number(row.refused ?? 0),
  };
};

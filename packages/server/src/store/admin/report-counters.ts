/**
 * The yearly report's counters (migration 044), kept as events happen: each event adds to its month's
 * count (China time) in the transaction that writes the event, so a count is there exactly when its
 * event is. The counters name nobody and erasure leaves them: a child who joined and was erased in a
 * year still counts in that year. Each write is one upsert of the rows in one order (month, figure,
 * key), so two PostgreSQL transactions counting the same rows never wait on each other in a circle.
 *
 * The distinct count of minors read keeps, per year, which minors were read (`report_people_read`, by
 * number): a person counts once, in the month of the year's first read. Those rows go with the person
 * at erasure (the count stays) and once their year is over.
 */
import { type AgeBand, CHINA_OFFSET_MS } from '@edupass/protocol';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/**
 * What is counted, and its key: accounts `opened`, `erased` and `moved` (to a band +1, from it -1) by
 * age band (`unknown` where none is known); `consents` by decision; `reads` by the reader's role;
 * `operator_reads_of_minors` (''); `people_read` by the minor's band; `approvals` requested, approved, refused.
 */
export type Figure =
  | 'opened'
  | 'erased'
  | 'moved'
  | 'consents'
  | 'reads'
  | 'operator_reads_of_minors'
  | 'people_read'
  | 'approvals';

export interface Count {
  figure: Figure;
  key: string;
  /** When the event happened (unix ms): its month is counted. */
  at: number;
  /** @default 1 */
  by?: number;
}

/** The month of `at` in China time, as `YYYYMM`. */
export const chinaMonth = (at: number) => {
  const date = new Date(at + CHINA_OFFSET_MS);
  return date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;
};

/** An account's key in the account figures. */
export const bandKey = (band: AgeBand | null | undefined) => band ?? 'unknown';

/** Adds the counts to their months' counters, in `db` (the transaction of the events counted). */
export const addCounts = async (db: Db, counts: readonly Count[]) => {
  const rows = new Map<string, { month: number; figure: Figure; key: string; count: number }>();
  for (const { figure, key, at, by = 1 } of counts) {
    const month = chinaMonth(at);
    const id = `${month}\u0000${figure}\u0000${key}`;
    const row = rows.get(id) ?? { month, figure, key, count: 0 };
    row.count += by;
    rows.set(id, row);
  }
  const values = [...rows.entries()]
    .filter(([, row]) => row.count !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
  if (values.length === 0) return;
  await db
    .insertInto('report_counters')
    .values(values)
    .onConflict((conflict) =>
      conflict
        .columns(['month', 'figure', 'key'])
        .doUpdateSet({ count: sql<number>`${sql.ref('report_counters.count')} + ${sql.ref('excluded.count')}` }),
    )
    .execute();
};

/** Accounts just made, counted by band in the months they were made. */
export const countOpened = (db: Db, users: readonly { age_band?: AgeBand | null; created_at: number }[]) =>
  addCounts(
    db,
    users.map((user) => ({ figure: 'opened', key: bandKey(user.age_band), at: user.created_at })),
  );

/** An account erased, counted by the band it had (the counts of its year stay as they were). */
export const countErased = (db: Db, user: { age_band: AgeBand | null }, at: number) =>
  addCounts(db, [{ figure: 'erased', key: bandKey(user.age_band), at }]);

/** An account's band changed (its age given, its class's grade corrected). */
export const countMoved = (db: Db, from: AgeBand | null, to: AgeBand | null, at: number) =>
  from === to
    ? Promise.resolve()
    : addCounts(db, [
        { figure: 'moved', key: bandKey(from), at, by: -1 },
        { figure: 'moved', key: bandKey(to), at },
      ]);

/** The minor bands: only people of these are counted among the people read (the report is of minors). */
const MINOR_BANDS: readonly string[] = ['under_8', '8_13', '14_15', '16_17'] satisfies readonly AgeBand[];

/**
 * Marks the minors among the people read in the year of `at` (adults and people of no known age are
 * not marked): the band of each of them who had not been read in that year before.
 */
const markMinorsRead = async (db: Db, subjectIds: readonly number[], at: number) => {
  const year = Math.floor(chinaMonth(at) / 100);
  const ids = [...new Set(subjectIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  const minors = (
    await db.selectFrom('users').select(['id', 'age_band']).where('id', 'in', ids).orderBy('id').execute()
  ).filter((user) => user.age_band !== null && MINOR_BANDS.includes(user.age_band));
  if (minors.length === 0) return [];
  const marked = await db
    .insertInto('report_people_read')
    .values(minors.map((minor) => ({ subject_id: minor.id, year })))
    .onConflict((conflict) => conflict.doNothing())
    .returning('subject_id')
    .execute();
  const band = new Map(minors.map((minor) => [minor.id, bandKey(minor.age_band)]));
  return marked.map((row) => band.get(row.subject_id) ?? 'unknown');
};

/**
 * Access-log rows just written (all at one time), counted: by role, operators' reads of minors, and the
 * minors read (`people_read`, by the band the person had when first read in the year).
 */
export const countReads = async (
  db: Db,
  rows: readonly { reader_role?: string; subject_id: number; reason?: string | null; created_at: number }[],
) => {
  const at = rows[0]?.created_at;
  if (at === undefined) return;
  const fresh = await markMinorsRead(
    db,
    rows.map((row) => row.subject_id),
    at,
  );
  await addCounts(db, [
    // A row without a role is a teacher's (the column's default, migration 029).
    ...rows.map((row): Count => ({ figure: 'reads', key: row.reader_role ?? 'teacher', at })),
    ...rows
      .filter((row) => row.reader_role === 'operator' && row.reason !== null && row.reason !== undefined)
      .map((): Count => ({ figure: 'operator_reads_of_minors', key: '', at })),
    ...fresh.map((band): Count => ({ figure: 'people_read', key: band, at })),
  ]);
};

/** The counters summed over the months `from`..`to` (`YYYYMM`, both counted), by figure and key. */
export const countsBetween = async (db: Db, from: number, to: number, figures: readonly Figure[]) =>
  (
    await db
      .selectFrom('report_counters')
      .select(['figure', 'key', sql<number | string>`sum(${sql.ref('count')})`.as('n')])
      .where('month', '>=', from)
      .where('month', '<=', to)
      .where('figure', 'in', figures)
      .groupBy(['figure', 'key'])
      .execute()
  ).map((row) => ({ figure: row.figure as Figure, key: row.key, n: Number(row.n) }));

/** The marks of years before `year` go (batch by batch): their counts are final. */
export const sweepPeopleReadBefore = (db: Db, year: number, batch: number) =>
  db
    .deleteFrom('report_people_read')
    .where('year', '<', year)
    .where('subject_id', 'in', (eb) =>
      eb.selectFrom('report_people_read').select('subject_id').where('year', '<', year).limit(batch),
    )
    .executeTakeFirst();

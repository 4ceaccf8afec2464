import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The yearly report's counters, kept as events happen (store/admin/report-counters.ts):
 * - `report_counters`: per month (China time, `YYYYMM`), figure and key (an age band, a role, a
 *   consent decision…), a count. It names nobody, so erasing an account leaves it: a child who joined
 *   and was erased in a year still counts in that year.
 * - `report_people_read`: which people's records staff read in a year (China time), by number, so the
 *   year's distinct count grows once per person; erased with the person and swept once the year is over.
 * - `data_requests.closed_at` indexed: the report reads the requests answered in a year through it.
 *
 * Months before this migration are filled once from the rows present: what was already erased (an
 * account and its access-log rows, a record's approvals) is not in them.
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('report_counters')
    .addColumn('month', 'bigint', (c) => c.notNull())
    .addColumn('figure', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_counters_pkey', ['month', 'figure', 'key'])
    .execute();
  await db.schema
    .createTable('report_people_read')
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('year', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_people_read_pkey', ['subject_id', 'year'])
    .execute();
  await db.schema.createIndex('report_people_read_year').on('report_people_read').column('year').execute();
  await db.schema.createIndex('data_requests_closed').on('data_requests').column('closed_at').execute();
  await countFromRows(db, dialect);
};

/**
 * Fills the counters from the rows present, as this migration did for the months before it (bench/scale
 * calls it on databases it fills by SQL, whose counters no event wrote).
 */
export const countFromRows = (db: Kysely<unknown>, dialect: MigrationContext['dialect']) =>
  backfill(db, monthOf(dialect));

/** The China-time month (`YYYYMM`) of a unix-ms column, in the dialect's words. */
const monthOf =
  (dialect: MigrationContext['dialect']) =>
  (column: string): RawBuilder<number> =>
    dialect === 'postgres'
      ? sql<number>`cast(to_char(to_timestamp((${sql.ref(column)} + 28800000) / 1000.0) at time zone 'UTC', 'YYYYMM') as integer)`
      : sql<number>`cast(strftime('%Y%m', (${sql.ref(column)} + 28800000) / 1000, 'unixepoch') as integer)`;

/** Each figure as the rows present give it: (month, figure, key, count) selects, one per figure. */
const backfill = async (db: Kysely<unknown>, month: (column: string) => RawBuilder<number>) => {
  const fill = (select: RawBuilder<unknown>) =>
    sql`insert into report_counters (month, figure, key, count) ${select}`.execute(db);
  await fill(
    sql`select ${month('created_at')}, 'opened', coalesce(age_band, 'unknown'), count(*) from users group by 1, 3`,
  );
  await fill(sql`select ${month('created_at')}, 'consents', decision, count(*) from guardian_consents group by 1, 3`);
  await fill(sql`select ${month('created_at')}, 'reads', reader_role, count(*) from edu_access_log group by 1, 3`);
  await fill(
    sql`select ${month('created_at')}, 'operator_reads_of_minors', '', count(*) from edu_access_log
      where reader_role = 'operator' and reason is not null group by 1`,
  );
  await fill(
    sql`select ${month('created_at')}, 'approvals', 'requested', count(*) from staff_access_approvals group by 1`,
  );
  await fill(
    sql`select ${month('decided_at')}, 'approvals', status, count(*) from staff_access_approvals
      where status in ('approved', 'refused') group by 1, 3`,
  );
  // Each person read in a year counts once, in the month of the year's first read.
  // Only minors count among the people read (the report is of minors), by their band.
  const firstReads = sql`select l.subject_id, u.age_band, min(l.created_at) as first from edu_access_log l
    join users u on u.id = l.subject_id where u.age_band in ('under_8', '8_13', '14_15', '16_17')
    group by l.subject_id, u.age_band, ${month('l.created_at')} / 100`;
  await sql`insert into report_people_read (subject_id, year) select subject_id, ${month('first')} / 100 from (${firstReads}) f`.execute(
    db,
  );
  await fill(sql`select ${month('first')}, 'people_read', age_band, count(*) from (${firstReads}) f group by 1, 3`);
};

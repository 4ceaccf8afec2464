/** Roster jobs and the links from roster ids (as HMACs) to schools, classes, accounts and memberships. */
import { type Insertable, type Kysely, type RawBuilder, sql } from 'kysely';
import { inBatches } from '../../in-batches.ts';
import type { Database } from '../../schema.ts';
import { childRow, recordSealerOf, sealedAs, storedPupilName } from '../../sealed-records.ts';
import { indexSchoolName } from '../school/school-names.ts';
import type { RosterLinksTable } from './roster-schema.ts';

type Db = Kysely<Database>;

/** Rows a batched insert carries: under both databases' bound-parameter limits for these widths. */
export const BATCH_ROWS = 500;

export const chunks = <T>(items: T[], size = BATCH_ROWS): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

export const insertRosterJob = (db: Db, row: Insertable<Database['roster_jobs']>) =>
  db.insertInto('roster_jobs').values(row).returningAll().executeTakeFirstOrThrow();

export const findRosterJob = (db: Db, id: number) =>
  db.selectFrom('roster_jobs').selectAll().where('id', '=', id).executeTakeFirst();

/** Marks a job applied (its rows are no longer kept); false when it was applied meanwhile. */
export const markRosterJobApplied = async (db: Db, id: number, preview: string, now: number) => {
  const result = await db
    .updateTable('roster_jobs')
    .set({ status: 'applied', roster: '', preview, applied_at: now })
    .where('id', '=', id)
    .where('status', '!=', 'applied')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Jobs one statement deletes at most: each holds a whole file's rows and preview. */
const ROSTER_JOB_BATCH = 20;

/**
 * Deletes the jobs uploaded before `before`, confirmed or not, `batch` at a time: their rows (names,
 * hashed ids) and previews go (EDU_ROSTER_JOB_HOURS; the audit log keeps what each import did).
 * Answers how many.
 */
export const deleteRosterJobsBefore = (db: Db, before: number, batch = ROSTER_JOB_BATCH) =>
  inBatches(batch, () =>
    db
      .deleteFrom('roster_jobs')
      .where('id', 'in', db.selectFrom('roster_jobs').select('id').where('created_at', '<', before).limit(batch))
      .executeTakeFirst(),
  );

export type RosterLink = Pick<
  RosterLinksTable,
  'kind' | 'source_hash' | 'school_id' | 'class_id' | 'user_id' | 'removed_at'
>;

/** Links of a kind among these hashes (org links are looked up by hash: a file names its own). */
export const linksByHash = async (db: Db, kind: string, hashes: string[]): Promise<RosterLink[]> => {
  const found: RosterLink[] = [];
  for (const part of chunks([...new Set(hashes)], 1000)) {
    if (part.length === 0) continue;
    found.push(
      ...(await db
        .selectFrom('roster_links')
        .select(['kind', 'source_hash', 'school_id', 'class_id', 'user_id', 'removed_at'])
        .where('kind', '=', kind)
        .where('source_hash', 'in', part)
        .execute()),
    );
  }
  return found;
};

/** Every link of a kind in these schools. */
export const linksOfSchools = (db: Db, kind: string, schoolIds: number[]): Promise<RosterLink[]> =>
  schoolIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('roster_links')
        .select(['kind', 'source_hash', 'school_id', 'class_id', 'user_id', 'removed_at'])
        .where('kind', '=', kind)
        .where('school_id', 'in', schoolIds)
        .execute();

export const insertLinks = async (db: Db, rows: Insertable<RosterLinksTable>[]) => {
  for (const part of chunks(rows)) await db.insertInto('roster_links').values(part).execute();
};

export const setLinksRemoved = async (db: Db, kind: string, hashes: string[], removedAt: number | null) => {
  for (const part of chunks(hashes, 1000)) {
    await db
      .updateTable('roster_links')
      .set({ removed_at: removedAt })
      .where('kind', '=', kind)
      .where('source_hash', 'in', part)
      .execute();
  }
};

export const deleteLinks = async (db: Db, kind: string, hashes: string[]) => {
  for (const part of chunks(hashes, 1000)) {
    await db.deleteFrom('roster_links').where('kind', '=', kind).where('source_hash', 'in', part).execute();
  }
};

/** Re-points enrollment links (an enrollment id now names another class, person or role). */
/**
 * `CASE <column> WHEN <key> THEN <value> … END` over `pairs`: one statement sets a different value per
 * row. Integers are cast, so PostgreSQL types the CASE as the column it is assigned to.
 */
const caseOf = <K extends string | number, V extends string | number>(column: string, pairs: [K, V][]): RawBuilder<V> =>
  sql<V>`CASE ${sql.ref(column)} ${sql.join(
    pairs.map(([key, value]) =>
      typeof value === 'number' ? sql`WHEN ${key} THEN CAST(${value} AS INTEGER)` : sql`WHEN ${key} THEN ${value}`,
    ),
    sql` `,
  )} END`;

/** Points enrollment links at their class and person now, a statement per 400. */
export const updateEnrollmentLinks = async (db: Db, links: { ref: string; classId: number; userId: number }[]) => {
  for (const part of chunks(links, 400)) {
    await db
      .updateTable('roster_links')
      .set({
        class_id: caseOf(
          'source_hash',
          part.map((l) => [l.ref, l.classId]),
        ),
        user_id: caseOf(
          'source_hash',
          part.map((l) => [l.ref, l.userId]),
        ),
      })
      .where('kind', '=', 'enrollment')
      .where(
        'source_hash',
        'in',
        part.map((l) => l.ref),
      )
      .execute();
  }
};

/** One link, or undefined. */
export const findLink = (db: Db, kind: string, hash: string) =>
  db
    .selectFrom('roster_links')
    .select(['kind', 'source_hash', 'school_id', 'class_id', 'user_id', 'removed_at'])
    .where('kind', '=', kind)
    .where('source_hash', '=', hash)
    .executeTakeFirst();

/** Enrollment links of these people (a person removed loses the memberships the roster gave). */
export const enrollmentLinksOfUsers = async (db: Db, userIds: number[]): Promise<RosterLink[]> => {
  const found: RosterLink[] = [];
  for (const part of chunks(userIds, 1000)) {
    found.push(
      ...(await db
        .selectFrom('roster_links')
        .select(['kind', 'source_hash', 'school_id', 'class_id', 'user_id', 'removed_at'])
        .where('kind', '=', 'enrollment')
        .where('user_id', 'in', part)
        .execute()),
    );
  }
  return found;
};

/** People a school's roster lists now (not removed), by school. */
export const listedPeopleBySchool = async (db: Db, schoolIds: number[]) => {
  const listed = new Map<number, number>();
  if (schoolIds.length === 0) return listed;
  const rows = await db
    .selectFrom('roster_links')
    .select((eb) => ['school_id', eb.fn.countAll<number>().as('n')])
    .where('kind', '=', 'user')
    .where('school_id', 'in', schoolIds)
    .where('removed_at', 'is', null)
    .groupBy('school_id')
    .execute();
  for (const r of rows) listed.set(Number(r.school_id), Number(r.n));
  return listed;
};

/** Class rows by id. */
export const classRowsById = async (db: Db, ids: number[]) => {
  const rows = [];
  for (const part of chunks([...new Set(ids)], 1000)) {
    rows.push(...(await db.selectFrom('classes').selectAll().where('id', 'in', part).execute()));
  }
  return new Map(rows.map((r) => [Number(r.id), r]));
};

/** Pupil accounts' names by user id (an id missing from the answer is no pupil account). */
export const pupilNamesById = async (db: Db, userIds: number[]) => {
  const names = new Map<number, string>();
  for (const part of chunks([...new Set(userIds)], 1000)) {
    const rows = await db
      .selectFrom('pupil_accounts')
      .select(['user_id', 'display_name'])
      .where('user_id', 'in', part)
      .execute();
    for (const r of rows) names.set(Number(r.user_id), r.display_name);
  }
  return names;
};

/** Active members' roles in these classes, by `class:user`. */
export const activeRolesInClasses = async (db: Db, classIds: number[]) => {
  const roles = new Map<string, string>();
  for (const part of chunks([...new Set(classIds)], 200)) {
    const rows = await db
      .selectFrom('class_members')
      .select(['class_id', 'user_id', 'role'])
      .where('class_id', 'in', part)
      .where('status', '=', 'active')
      .execute();
    for (const r of rows) roles.set(`${Number(r.class_id)}:${Number(r.user_id)}`, r.role);
  }
  return roles;
};

/** Account ids by phone or by e-mail (exact, as stored; a child's sealed one by its blind index). */
export const userIdsBy = async (db: Db, column: 'phone' | 'email', values: string[]) => {
  const found = new Map<string, number>();
  const sealer = recordSealerOf(db);
  for (const part of chunks([...new Set(values)], 500)) {
    const indexes = sealer === undefined ? part : part.map((value) => sealer.index(column, value));
    const rows = await db
      .selectFrom('users')
      .select(['id', column])
      .where((eb) => eb.or([eb(column, 'in', part), eb(`${column}_index`, 'in', indexes)]))
      .execute();
    for (const r of rows) {
      const value = r[column];
      if (value) found.set(value, Number(r.id));
    }
  }
  return found;
};

export const renameSchoolRow = async (db: Db, schoolId: number, name: string) => {
  await db.updateTable('schools').set({ name }).where('id', '=', schoolId).execute();
  await indexSchoolName(db, schoolId, name);
};

export const archiveClassRows = async (db: Db, classIds: number[], now: number) => {
  for (const part of chunks(classIds, 1000)) {
    await db.updateTable('classes').set({ archived_at: now, join_code: null }).where('id', 'in', part).execute();
  }
};

/** Renames pupils (their pupil account and their user's full name), two statements per 400. */
export const renamePupilRows = async (db: Db, renames: { userId: number; to: string }[], now: number) => {
  for (const part of chunks(renames, 400)) {
    const ids = part.map((r) => r.userId);
    const names = part.map((r): [number, string] => [r.userId, r.to]);
    await db
      .updateTable('pupil_accounts')
      .set({
        display_name: caseOf(
          'user_id',
          names.map(([id, name]) => [id, storedPupilName(db, name)]),
        ),
      })
      .where('user_id', 'in', ids)
      .execute();
    // The full name as the account's band asks: sealed for a child's.
    const sealed = names.map(([id, name]): [number, string] => [id, sealedAs(db, 'fullname', name)]);
    const fullname = sql<string>`CASE WHEN ${childRow} THEN ${caseOf('id', sealed)} ELSE ${caseOf('id', names)} END`;
    await db.updateTable('users').set({ fullname, updated_at: now }).where('id', 'in', ids).execute();
  }
};

/** Ends memberships, a statement per class. */
export const deleteClassMembers = async (db: Db, pairs: { classId: number; userId: number }[]) => {
  const byClass = new Map<number, number[]>();
  for (const p of pairs) byClass.set(p.classId, [...(byClass.get(p.classId) ?? []), p.userId]);
  for (const [classId, userIds] of byClass) {
    for (const part of chunks(userIds, 1000)) {
      await db.deleteFrom('class_members').where('class_id', '=', classId).where('user_id', 'in', part).execute();
    }
  }
};

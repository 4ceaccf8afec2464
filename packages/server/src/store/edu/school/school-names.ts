/**
 * Finding a school by a part of its name (migration 040). A name is kept as a key (NFKC, lower case,
 * no spaces) and as the set of its two-character pieces, each a row of `school_name_grams` under the
 * primary key (gram, school_id): a search reads the schools holding the query's first piece through
 * that index, checks up to four other pieces there too (at most 200 candidates, in a materialized step),
 * then compares each candidate's key with LIKE, reading its school by id: its work follows the schools
 * that hold the pieces, never a scan of every school, on SQLite and PostgreSQL alike. Works for 汉字
 * and Latin.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../schema.ts';
import { inStoreTransaction } from '../../transaction.ts';

type Db = Kysely<Database>;

/** The form a name and a query are compared in: NFKC, lower case, without spaces. */
export const nameKey = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');

/** The distinct two-character pieces of a key (a one-character key is its own piece). */
export const namePieces = (key: string): string[] => {
  const chars = [...key];
  if (chars.length < 2) return chars;
  return [...new Set(chars.slice(1).map((c, i) => `${chars[i]}${c}`))];
};

/** Writes a school's name key and pieces (after adding or renaming it); in the caller's transaction if any. */
export const indexSchoolName = async (db: Db, schoolId: number, name: string) => {
  const work = async (tx: Db) => {
    const key = nameKey(name);
    await tx.updateTable('schools').set({ name_key: key }).where('id', '=', schoolId).execute();
    await tx.deleteFrom('school_name_grams').where('school_id', '=', schoolId).execute();
    const pieces = namePieces(key);
    if (pieces.length > 0) {
      await tx
        .insertInto('school_name_grams')
        .values(pieces.map((gram) => ({ gram, school_id: schoolId })))
        .execute();
    }
  };
  await inStoreTransaction(db, work);
};

/** Pieces of the query also checked in the index (beyond the first), to keep wide pieces like 小学 cheap. */
const CHECKED_PIECES = 4;
/**
 * Schools holding the pieces that a search reads from the index at most, before comparing the keys: the
 * work stays bounded however common the pieces (a name that holds every piece but not the words is rare).
 */
const CANDIDATES = 200;

/**
 * Schools whose name key holds `key` (at least two characters), by id, at most `limit`. The candidates
 * come from the pieces' index first (a materialized step, so no planner scans `schools` whole), then their
 * keys are compared.
 */
export const schoolsNamedQuery = (db: Db, key: string, limit: number) => {
  const [first = '', ...rest] = namePieces(key);
  const pattern = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .with(
      (cte) => cte('candidates').materialized(),
      (qb) => {
        let query = qb.selectFrom('school_name_grams as g').select('g.school_id').where('g.gram', '=', first);
        for (const [i, piece] of rest.slice(0, CHECKED_PIECES).entries()) {
          const alias = `g${i}` as 'g';
          query = query.where(({ exists, selectFrom }) =>
            exists(
              selectFrom(`school_name_grams as ${alias}`)
                .select(sql.lit(1).as('one'))
                .where(`${alias}.gram`, '=', piece)
                .whereRef(`${alias}.school_id`, '=', 'g.school_id'),
            ),
          );
        }
        return query.orderBy('g.school_id').limit(CANDIDATES);
      },
    )
    .selectFrom((qb) =>
      qb
        .selectFrom('candidates')
        .select((eb) => [
          'candidates.school_id as id',
          // Each candidate's school by its key, one at a time: a join let PostgreSQL's planner hash
          // the candidates against a scan of every school when its statistics guessed many of them.
          eb
            .selectFrom('schools')
            .select('schools.name')
            .whereRef('schools.id', '=', 'candidates.school_id')
            .where(sql<boolean>`${sql.ref('schools.name_key')} like ${pattern} escape '\\'`)
            .as('name'),
        ])
        .as('named'),
    )
    .select(['named.id', 'named.name'])
    .where('named.name', 'is not', null)
    .$narrowType<{ name: string }>()
    .orderBy('named.id')
    .limit(limit);
};

export const schoolsNamed = (db: Db, key: string, limit: number) => schoolsNamedQuery(db, key, limit).execute();

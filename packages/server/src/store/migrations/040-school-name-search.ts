import type { Kysely } from 'kysely';

/**
 * Finding a school by a part of its name (store/edu/school/school-names.ts): `schools.name_key` (the
 * name in NFKC, lower case, without spaces) and `school_name_grams`, one row per two-character piece
 * of it, keyed (gram, school_id). Schools added before are written here. A school member's `status`
 * may now also be `refused` (a request the school turned down, kept so the person sees it).
 */
// As store/edu/school/school-names.ts has them on the day of this migration (a migration does not change).
const nameKey = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
const namePieces = (key: string): string[] => {
  const chars = [...key];
  if (chars.length < 2) return chars;
  return [...new Set(chars.slice(1).map((c, i) => `${chars[i]}${c}`))];
};

export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('schools')
    .addColumn('name_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('school_name_grams')
    .addColumn('gram', 'text', (c) => c.notNull())
    .addColumn('school_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('school_name_grams_pk', ['gram', 'school_id'])
    .execute();
  await db.schema.createIndex('school_name_grams_school').on('school_name_grams').column('school_id').execute();
  const typed = db as Kysely<{
    schools: { id: number; name: string; name_key: string };
    school_name_grams: { gram: string; school_id: number };
  }>;
  for (const school of await typed.selectFrom('schools').select(['id', 'name']).execute()) {
    const key = nameKey(school.name);
    await typed.updateTable('schools').set({ name_key: key }).where('id', '=', school.id).execute();
    const pieces = namePieces(key);
    if (pieces.length > 0) {
      await typed
        .insertInto('school_name_grams')
        .values(pieces.map((gram) => ({ gram, school_id: Number(school.id) })))
        .execute();
    }
  }
};

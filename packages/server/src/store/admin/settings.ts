import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** Reads a setting, writing `create()` first when it is missing (first writer wins). */
export const settingOrCreate = async (db: Db, key: string, create: () => string): Promise<string> => {
  await db
    .insertInto('settings')
    .values({ key, value: create() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
};

export const findSetting = async (db: Db, key: string): Promise<string | undefined> =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

export const putSetting = (db: Db, key: string, value: string) =>
  db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();

export const deleteSetting = (db: Db, key: string) => db.deleteFrom('settings').where('key', '=', key).execute();

/** Replaces a setting's value only if it still holds `was` (another process may have changed it). */
export const replaceSetting = (db: Db, key: string, was: string, value: string) =>
  db.updateTable('settings').set({ value }).where('key', '=', key).where('value', '=', was).execute();

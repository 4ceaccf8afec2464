/** A guardian's stricter minor mode for a child (migration 028). */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema.ts';

type Db = Kysely<Database>;

export const findMinorSettings = (db: Db, userId: number) =>
  db.selectFrom('minor_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();

export const saveMinorSettings = (
  db: Db,
  row: {
    user_id: number;
    daily_limit_minutes: number | null;
    curfew: string | null;
    updated_by: number;
    updated_at: number;
  },
) =>
  db
    .insertInto('minor_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        daily_limit_minutes: row.daily_limit_minutes,
        curfew: row.curfew,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute()
    .then(() => {});

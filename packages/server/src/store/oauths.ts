import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

export const userOauths = (db: Db, userId: number) =>
  db.selectFrom('user_oauths').selectAll().where('user_id', '=', userId).execute();

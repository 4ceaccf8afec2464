/** Third-party identities linked to users (user_oauths): one per (provider, openid), one per kind per user. */
import type { Insertable, Kysely } from 'kysely';
import type { Database, UserOauthsTable } from '../schema.ts';
import { isUniqueViolation } from './users.ts';

type Db = Kysely<Database>;

export const userOauths = (db: Db, userId: number) =>
  db.selectFrom('user_oauths').selectAll().where('user_id', '=', userId).execute();

/** The link of an identity: by openid, else (same provider) by unionid, which names the person across apps. */
export const findOauthLink = async (db: Db, provider: string, openid: string, unionid: string | null) =>
  (await db
    .selectFrom('user_oauths')
    .selectAll()
    .where('provider', '=', provider)
    .where('openid', '=', openid)
    .executeTakeFirst()) ??
  (unionid === null
    ? undefined
    : await db
        .selectFrom('user_oauths')
        .selectAll()
        .where('provider', '=', provider)
        .where('unionid', '=', unionid)
        .orderBy('id')
        .executeTakeFirst());

export const findUserOauth = (db: Db, userId: number, provider: string) =>
  db
    .selectFrom('user_oauths')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();

/** Links an identity; false when the identity or the user's slot for the kind is taken. */
export const insertOauthLink = async (db: Db, link: Insertable<UserOauthsTable>): Promise<boolean> => {
  try {
    await db.insertInto('user_oauths').values(link).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
};

export const deleteOauthLink = async (db: Db, userId: number, provider: string): Promise<boolean> => {
  const result = await db
    .deleteFrom('user_oauths')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
};

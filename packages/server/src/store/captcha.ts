/** Captcha tables: slide-puzzle challenges and operator-set policies. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export type CaptchaChallengesTable = {
  id_hash: string;
  answer_x: number;
  scene: string;
  identity: string;
  ip: string;
  device_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
};

export type CaptchaPoliciesTable = {
  pid: string;
  scene: string;
  policy: string;
  updated_at: number;
};

// Type aliases, not interfaces: Kysely's withTables needs index-signature-compatible types.
export type CaptchaTables = {
  captcha_challenges: CaptchaChallengesTable;
  captcha_policies: CaptchaPoliciesTable;
};

export type CaptchaChallenge = CaptchaChallengesTable;

const tables = (db: Kysely<Database>) => db.withTables<CaptchaTables>();

export const putChallenge = (db: Kysely<Database>, row: CaptchaChallenge) =>
  tables(db).insertInto('captcha_challenges').values(row).execute();

/**
 * Takes a live challenge: marks it used and returns it, for the one caller that does so first.
 * Expired, unknown and already-answered challenges give undefined, so none can be answered twice.
 */
export const takeChallenge = async (
  db: Kysely<Database>,
  idHash: string,
  now: number,
): Promise<CaptchaChallenge | undefined> => {
  const result = await tables(db)
    .updateTable('captcha_challenges')
    .set({ used_at: now })
    .where('id_hash', '=', idHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return tables(db).selectFrom('captcha_challenges').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
};

export const deleteExpiredChallenges = (db: Kysely<Database>, now: number) =>
  tables(db).deleteFrom('captcha_challenges').where('expires_at', '<=', now).execute();

/** Operator policies that could apply to pid and scene, most specific first is the caller's job. */
export const findPolicies = (db: Kysely<Database>, pid: string, scene: string) =>
  tables(db)
    .selectFrom('captcha_policies')
    .select(['pid', 'scene', 'policy'])
    .where('pid', 'in', [pid, '*'])
    .where('scene', 'in', [scene, '*'])
    .execute();

export const listPolicies = (db: Kysely<Database>) =>
  tables(db)
    .selectFrom('captcha_policies')
    .select(['pid', 'scene', 'policy'])
    .orderBy('pid')
    .orderBy('scene')
    .execute();

export const putPolicy = (db: Kysely<Database>, row: CaptchaPoliciesTable) =>
  tables(db)
    .insertInto('captcha_policies')
    .values(row)
    .onConflict((oc) => oc.columns(['pid', 'scene']).doUpdateSet({ policy: row.policy, updated_at: row.updated_at }))
    .execute();

export const deletePolicy = (db: Kysely<Database>, pid: string, scene: string) =>
  tables(db).deleteFrom('captcha_policies').where('pid', '=', pid).where('scene', '=', scene).execute();

/** Captcha tables: slide-puzzle challenges, and what operators set: policies, providers, vendor keys. */
import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import type { Database } from '../schema.ts';
import { cachedSetting, writeSettings } from '../settings-cache.ts';

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

export type CaptchaProvidersTable = {
  pid: string;
  provider: string;
  updated_at: number;
};

export type CaptchaVendorKeysTable = {
  vendor: string;
  field: string;
  /** Public fields as they are; secrets sealed (services/security/sealed-values.ts). */
  value: string;
  updated_at: number;
};

// Type aliases, not interfaces: Kysely's withTables needs index-signature-compatible types.
export type CaptchaTables = {
  captcha_challenges: CaptchaChallengesTable;
  captcha_policies: CaptchaPoliciesTable;
  captcha_providers: CaptchaProvidersTable;
  captcha_vendor_keys: CaptchaVendorKeysTable;
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

// Every gated action asks it (a password sign-in among them): compiled once (compiled-query.ts).
const policiesQuery = compiledOnce(
  (db, pid: string, everyProduct: string, scene: string, everyScene: string) =>
    tables(db)
      .selectFrom('captcha_policies')
      .select(['pid', 'scene', 'policy'])
      .where('pid', 'in', [pid, everyProduct])
      .where('scene', 'in', [scene, everyScene]),
  ['', '', '', ''],
);

/** Operator policies that could apply to pid and scene, most specific first is the caller's job. */
export const findPolicies = (db: Kysely<Database>, pid: string, scene: string) =>
  cachedSetting(db, 'captcha', `${pid}\n${scene}`, async () => (await policiesQuery(db, pid, '*', scene, '*')).rows);

export const listPolicies = (db: Kysely<Database>) =>
  tables(db)
    .selectFrom('captcha_policies')
    .select(['pid', 'scene', 'policy'])
    .orderBy('pid')
    .orderBy('scene')
    .execute();

export const putPolicy = (db: Kysely<Database>, row: CaptchaPoliciesTable) =>
  writeSettings(db, 'captcha', () =>
    tables(db)
      .insertInto('captcha_policies')
      .values(row)
      .onConflict((oc) => oc.columns(['pid', 'scene']).doUpdateSet({ policy: row.policy, updated_at: row.updated_at }))
      .execute(),
  );

export const deletePolicy = (db: Kysely<Database>, pid: string, scene: string) =>
  writeSettings(db, 'captcha', () =>
    tables(db).deleteFrom('captcha_policies').where('pid', '=', pid).where('scene', '=', scene).execute(),
  );

/** Removes every operator policy of a product (every scene), answering the rows removed. */
export const deletePoliciesOf = (db: Kysely<Database>, pid: string) =>
  writeSettings(db, 'captcha', () =>
    tables(db).deleteFrom('captcha_policies').where('pid', '=', pid).returning(['pid', 'scene', 'policy']).execute(),
  );

/** The operator's provider for pid and for '*', whichever are set. */
export const findProviders = (db: Kysely<Database>, pid: string) =>
  tables(db).selectFrom('captcha_providers').select(['pid', 'provider']).where('pid', 'in', [pid, '*']).execute();

export const listProviders = (db: Kysely<Database>) =>
  tables(db).selectFrom('captcha_providers').select(['pid', 'provider']).orderBy('pid').execute();

export const putProvider = (db: Kysely<Database>, row: CaptchaProvidersTable) =>
  tables(db)
    .insertInto('captcha_providers')
    .values(row)
    .onConflict((oc) => oc.column('pid').doUpdateSet({ provider: row.provider, updated_at: row.updated_at }))
    .execute();

export const deleteProvider = (db: Kysely<Database>, pid: string) =>
  tables(db).deleteFrom('captcha_providers').where('pid', '=', pid).execute();

/** Console-set vendor fields: one vendor's, or every vendor's. */
export const findVendorKeys = (db: Kysely<Database>, vendor?: string) => {
  const query = tables(db).selectFrom('captcha_vendor_keys').select(['vendor', 'field', 'value']);
  return (vendor === undefined ? query : query.where('vendor', '=', vendor)).execute();
};

export const putVendorKeys = (db: Kysely<Database>, rows: CaptchaVendorKeysTable[]) =>
  db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await tables(trx)
        .insertInto('captcha_vendor_keys')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['vendor', 'field']).doUpdateSet({ value: row.value, updated_at: row.updated_at }),
        )
        .execute();
    }
  });

export const deleteVendorKeys = (db: Kysely<Database>, vendor: string, fields: string[]) =>
  tables(db).deleteFrom('captcha_vendor_keys').where('vendor', '=', vendor).where('field', 'in', fields).execute();

/** Second-factor rows: the TOTP secret, passkeys and recovery codes of a user. */
import type { Kysely } from 'kysely';
import type { Database, PasskeysTable } from '../schema.ts';

type Db = Kysely<Database>;

export const findTotp = (db: Db, userId: number) =>
  db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** A new, unconfirmed secret replaces any earlier one that was never confirmed; a confirmed one stays. */
export const putPendingTotp = async (db: Db, userId: number, sealed: string, now: number): Promise<boolean> => {
  await db.deleteFrom('totp_secrets').where('user_id', '=', userId).where('confirmed_at', 'is', null).execute();
  const result = await db
    .insertInto('totp_secrets')
    .values({ user_id: userId, secret_sealed: sealed, confirmed_at: null, last_step: null, created_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
};

/**
 * Records a code of time step `step` as used: true only for the one caller whose step is newer than
 * every step used before (a replayed or parallel second use finds the row already moved on).
 */
export const useTotpStep = async (db: Db, userId: number, step: number, confirmAt: number | undefined) => {
  const result = await db
    .updateTable('totp_secrets')
    .set({ last_step: step, ...(confirmAt === undefined ? {} : { confirmed_at: confirmAt }) })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const deleteTotp = (db: Db, userId: number) =>
  db.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();

export const userPasskeys = (db: Db, userId: number) =>
  db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();

export const findPasskeyByCredential = (db: Db, credentialId: string) =>
  db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

export const insertPasskey = (db: Db, row: Omit<PasskeysTable, 'id'>) =>
  db.insertInto('passkeys').values(row).returning('id').executeTakeFirstOrThrow();

/** Moves the signature counter on; false when another use got there first (a cloned authenticator or a race). */
export const usePasskey = async (db: Db, id: number, oldCounter: number, newCounter: number, now: number) => {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: newCounter, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', oldCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const renamePasskey = async (db: Db, userId: number, id: number, name: string) =>
  Number(
    (
      await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) === 1;

export const deletePasskey = async (db: Db, userId: number, id: number) =>
  Number(
    (await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst())
      .numDeletedRows,
  ) === 1;

/** Replaces every recovery code of the user with these hashes, in one transaction. */
export const replaceRecoveryCodes = (db: Db, userId: number, hashes: string[]) =>
  db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
      .execute();
  });

/** Spends an unused code: true for the one caller that spends it. */
export const useRecoveryCode = async (db: Db, userId: number, codeHash: string, now: number) => {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const isUnusedRecoveryCode = async (db: Db, userId: number, codeHash: string) => {
  const row = await db
    .selectFrom('recovery_codes')
    .select('code_hash')
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
};

export const unusedRecoveryCodes = async (db: Db, userId: number) => {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** Every second factor of the user gone (an operator's reset). */
export const deleteSecondFactors = (db: Db, userId: number) =>
  db.transaction().execute(async (trx) => {
    await trx.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();
    await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  });

/**
 * A pupil's initial password, kept only sealed until the pupil chooses one.
 *
 * A school creates pupils a hundred at a time and must print their passwords on login cards again
 * later, so each initial password is kept sealed (AES-256-GCM with the keyring's sealing key, bound to the
 * account) in `pupil_accounts.initial_password_sealed`. An argon2id hash of the same password beside
 * it would add nothing but cost: whoever holds the database and the key opens the sealed copy anyway,
 * and whoever holds the database alone could attack the hash offline (39 bits) but not the sealed copy.
 * So `users.password_hash` holds a marker instead, and a guess is compared in constant time with the
 * opened sealed copy. The first password the pupil chooses is hashed like every password and clears
 * the sealed copy (changes.ts); a reset seals a new one.
 *
 * The check spends the time of an argon2id check too, so timing does not tell an account that still
 * has its initial password from one with a hashed password or from no account at all.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from '../../context.ts';
import { findPupilAccount } from '../../store/edu/school/pupils.ts';
import { seal, unseal } from '../security/sealed-values.ts';
import { verifyAgainstNothing } from './argon2.ts';

/** What `users.password_hash` holds while the password is the sealed initial one (never a valid hash). */
export const SEALED_INITIAL_PASSWORD = '$sealed-initial$';

/** The sealed initial password is named by the account, so it opens for that account only. */
export const initialPasswordName = (userId: number) => `pupil-password:${userId}`;

export const sealInitialPassword = (ctx: Context, userId: number, password: string) =>
  seal(ctx.keys.sealing, password, initialPasswordName(userId));

/** The initial password as the card prints it, or undefined once the pupil chose their own. */
export const openInitialPassword = (ctx: Context, userId: number, sealed: string | null) =>
  sealed === null ? undefined : unseal(ctx.keys.sealing, sealed, initialPasswordName(userId));

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** Whether `password` is the user's sealed initial password. */
export const isInitialPassword = async (ctx: Context, userId: number, password: string): Promise<boolean> => {
  const [account] = await Promise.all([
    findPupilAccount(ctx.db, userId),
    verifyAgainstNothing(password, ctx.config.passwordHashing),
  ]);
  const sealed = account?.initial_password_sealed;
  const opened = openInitialPassword(ctx, userId, sealed ?? null);
  return opened !== undefined && sameSecret(opened, password);
};

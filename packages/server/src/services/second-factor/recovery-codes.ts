/**
 * Recovery codes: ten single-use codes for when the app and the passkeys are out of reach. Shown once
 * when made, kept only as keyed hashes; making new ones voids the old.
 */
import { randomInt } from 'node:crypto';
import type { Context } from '../../context.ts';
import { isUnusedRecoveryCode, replaceRecoveryCodes, useRecoveryCode } from '../../store/account/second-factor.ts';
import { hmac } from '../security/hashing.ts';

const COUNT = 10;
// No 0/O, 1/I/L: codes are copied from paper.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const newCode = () => {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
};

/** Spaces, dashes and case do not matter when a code is typed back. */
const normalised = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

const hashOf = (ctx: Context, userId: number, code: string) =>
  hmac(ctx.keys.codes, `recovery:${userId}:${normalised(code)}`);

/** Ten new codes for the user (the old ones stop working); the only time they are readable. */
export const newRecoveryCodes = async (ctx: Context, userId: number): Promise<string[]> => {
  const codes = Array.from({ length: COUNT }, newCode);
  await replaceRecoveryCodes(
    ctx.db,
    userId,
    codes.map((code) => hashOf(ctx, userId, code)),
  );
  return codes;
};

/** Spends a recovery code: true for the one request that spends an unused code of the user. */
export const spendRecoveryCode = (ctx: Context, userId: number, code: string) =>
  normalised(code).length === 10 && useRecoveryCode(ctx.db, userId, hashOf(ctx, userId, code), ctx.now());

/** Whether the code is an unused recovery code of the user (spends nothing). */
export const holdsRecoveryCode = (ctx: Context, userId: number, code: string) =>
  normalised(code).length === 10 && isUnusedRecoveryCode(ctx.db, userId, hashOf(ctx, userId, code));

/** A typed answer that looks like a recovery code rather than an app code. */
export const looksLikeRecoveryCode = (code: string) => normalised(code).length === 10;

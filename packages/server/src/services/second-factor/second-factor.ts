/**
 * Proving the second factor: an authenticator-app code, a recovery code or a passkey answer. Every
 * proof reserves one attempt against the account's second-factor lock first (as passwords do,
 * password-guess.ts), so parallel guesses cannot pass the limit; a right proof clears the count.
 */
import type { SecondFactorMethod } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, SecondFactorRequired } from '../../errors.ts';
import { unusedRecoveryCodes, userPasskeys } from '../../store/account/second-factor.ts';
import type { User } from '../../store/schema.ts';
import { reserveLoggedAttempt } from '../passwords/guesses.ts';
import { securityEvent } from '../security/events.ts';
import { issueTicket } from '../security/tickets.ts';
import { type PasskeyPurpose, verifyPasskeyAssertion } from './passkeys.ts';
import { looksLikeRecoveryCode, spendRecoveryCode } from './recovery-codes.ts';
import { checkTotpCode, hasConfirmedTotp } from './totp.ts';

export interface SecondFactorProof {
  /** An authenticator-app code or a recovery code. */
  code?: string | undefined;
  /** A passkey's answer to options of the same purpose. */
  passkey?: unknown;
}

/** The second factors the user can prove with now (empty: none set up). */
export const secondFactorMethods = async (ctx: Context, userId: number): Promise<SecondFactorMethod[]> => {
  const [totp, passkeys, codes] = await Promise.all([
    hasConfirmedTotp(ctx, userId),
    userPasskeys(ctx.db, userId),
    unusedRecoveryCodes(ctx.db, userId),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (totp) methods.push('totp');
  if (passkeys.length > 0) methods.push('passkey');
  if (methods.length > 0 && codes > 0) methods.push('recovery_code');
  return methods;
};

export const hasSecondFactor = async (ctx: Context, userId: number) =>
  (await secondFactorMethods(ctx, userId)).some((m) => m !== 'recovery_code');

/** Its own count, apart from the password's: a second-factor guess needs the password already. */
const lockKey = (userId: number) => `second-factor:user:${userId}`;

const proofHolds = async (ctx: Context, userId: number, proof: SecondFactorProof, purpose: PasskeyPurpose) => {
  if (proof.passkey !== undefined && purpose !== 'register' && purpose !== 'sign-in') {
    await verifyPasskeyAssertion(ctx, proof.passkey, purpose, userId);
    return 'passkey';
  }
  const code = proof.code?.trim() ?? fail('E_12');
  if (looksLikeRecoveryCode(code)) return (await spendRecoveryCode(ctx, userId, code)) ? 'recovery code' : undefined;
  return (await checkTotpCode(ctx, userId, code)) ? 'app code' : undefined;
};

/**
 * Checks a proof of the user's second factor; E_12 for a wrong or replayed code, E_13 for a passkey
 * answer that fails, E_5 when the lock refuses it unchecked. Answers how it was proved, for the log.
 */
export const proveSecondFactor = async (
  ctx: Context,
  userId: number,
  proof: SecondFactorProof,
  purpose: 'second-factor' | 'step-up',
  ip: string,
): Promise<string> => {
  const attempt = await reserveLoggedAttempt(ctx, lockKey(userId), { userId, ip }, 'second factor');
  let how: string | undefined;
  try {
    how = await proofHolds(ctx, userId, proof, purpose);
  } catch (error) {
    securityEvent(ctx, { event: 'second_factor_failed', userId, ip, reason: `${purpose}: passkey` });
    throw error;
  }
  if (how === undefined) {
    securityEvent(ctx, { event: 'second_factor_failed', userId, ip, reason: `${purpose}: code` });
    return fail('E_12');
  }
  await attempt.succeeded();
  return how;
};

/**
 * Called by every sign-in before it starts a session: E_11 with a challenge when the account has a
 * second factor. Without one, E_14 when the product requires it of accounts with a password and the
 * step was the password.
 */
export const requireSecondStep = async (
  ctx: Context,
  user: User,
  step: { method: string; agreementIds: number[] },
  pid?: string,
) => {
  const methods = await secondFactorMethods(ctx, user.id);
  if (methods.length === 0) {
    if (step.method === 'password' && pid !== undefined && ctx.config.secondFactorProducts.includes(pid)) fail('E_14');
    return;
  }
  const data = { method: step.method, agreement_ids: step.agreementIds };
  const challenge = await issueTicket(
    ctx,
    'second_factor',
    `user:${user.id}`,
    ctx.config.secondFactorChallengeSeconds,
    data,
  );
  throw new SecondFactorRequired(challenge, methods);
};

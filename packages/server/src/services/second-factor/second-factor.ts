/**
 * Proving the second factor: an authenticator-app code, a recovery code or a passkey answer. Every
 * proof reserves one attempt against the account's second-factor lock first (as passwords do,
 * password-guess.ts), so parallel guesses cannot pass the limit; a right proof clears the count.
 */
import type { SecondFactorMethod } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, SecondFactorRequired } from '../../errors.ts';
import { type AccountStanding, accountStanding } from '../../store/account/standing.ts';
import type { User } from '../../store/schema.ts';
import { reserveLoggedAttempt } from '../passwords/guesses.ts';
import { securityEvent } from '../security/events.ts';
import { issueTicket } from '../security/tickets.ts';
import { verifyPasskeyAssertion } from './passkeys.ts';
import { holdsRecoveryCode, looksLikeRecoveryCode, spendRecoveryCode } from './recovery-codes.ts';
import { checkTotpCode } from './totp.ts';

export interface SecondFactorProof {
  /** An authenticator-app code or a recovery code. */
  code?: string | undefined;
  /** A passkey's answer to options of the same purpose. */
  passkey?: unknown;
}

/** The second factors an account of this standing can prove with (empty: none set up). */
const methodsOf = ({ totp, passkeys, recoveryCodes }: AccountStanding): SecondFactorMethod[] => {
  const methods: SecondFactorMethod[] = [];
  if (totp > 0) methods.push('totp');
  if (passkeys > 0) methods.push('passkey');
  if (methods.length > 0 && recoveryCodes > 0) methods.push('recovery_code');
  return methods;
};

/** The second factors the user can prove with now (empty: none set up). */
export const secondFactorMethods = async (ctx: Context, userId: number): Promise<SecondFactorMethod[]> =>
  methodsOf(await accountStanding(ctx.db, userId));

/** The first step of a sign-in by a passkey without user verification: a second factor other than a passkey follows. */
export const PASSKEY_STEP = 'passkey';

export const hasSecondFactor = async (ctx: Context, userId: number) =>
  (await secondFactorMethods(ctx, userId)).some((m) => m !== 'recovery_code');

/** Its own count, apart from the password's: a second-factor guess needs the password already. */
const lockKey = (userId: number) => `second-factor:user:${userId}`;

/** What a proof is checked for: the step it finishes, and what must be won before it is spent. */
export interface ProofUse {
  purpose: 'second-factor' | 'step-up';
  /** The sign-in's first step, when the proof finishes one. */
  firstStep?: string | undefined;
  /**
   * Run once the proof holds and before a recovery code is spent (a sign-in's challenge, spent
   * once): a request that loses there has used up nothing of the user's.
   */
  claim?: (() => Promise<unknown>) | undefined;
}

const proofHolds = async (ctx: Context, userId: number, proof: SecondFactorProof, use: ProofUse) => {
  const claim = use.claim ?? (async () => {});
  if (proof.passkey !== undefined) {
    // A passkey that was the first step is not also the second.
    if (use.firstStep === PASSKEY_STEP) fail('E_13', 'Confirm with another second factor than the passkey.');
    await verifyPasskeyAssertion(ctx, proof.passkey, use.purpose, userId);
    await claim();
    return 'passkey';
  }
  const code = proof.code?.trim() ?? fail('E_12');
  if (looksLikeRecoveryCode(code)) {
    if (!(await holdsRecoveryCode(ctx, userId, code))) return undefined;
    await claim();
    return (await spendRecoveryCode(ctx, userId, code)) ? 'recovery code' : undefined;
  }
  if (!(await checkTotpCode(ctx, userId, code))) return undefined;
  await claim();
  return 'app code';
};

/**
 * Checks a proof of the user's second factor; E_12 for a wrong or replayed code, E_13 for a passkey
 * answer that fails, E_5 when the lock refuses it unchecked. Answers how it was proved, for the log.
 */
export const proveSecondFactor = async (
  ctx: Context,
  userId: number,
  proof: SecondFactorProof,
  use: ProofUse,
  ip: string,
): Promise<string> => {
  const attempt = await reserveLoggedAttempt(ctx, lockKey(userId), { userId, ip }, 'second factor');
  let how: string | undefined;
  try {
    how = await proofHolds(ctx, userId, proof, use);
  } catch (error) {
    await attempt.failed();
    if (proof.passkey !== undefined) {
      securityEvent(ctx, { event: 'second_factor_failed', userId, ip, reason: `${use.purpose}: passkey` });
    }
    throw error;
  }
  if (how === undefined) {
    await attempt.failed();
    securityEvent(ctx, { event: 'second_factor_failed', userId, ip, reason: `${use.purpose}: code` });
    return fail('E_12');
  }
  await attempt.succeeded();
  return how;
};

/**
 * Called by every sign-in before it starts a session, with the account's standing read for it: E_11
 * with a challenge when the account has a second factor. Without one, E_14 when the product requires it of accounts with a password and the
 * step was the password.
 */
export const requireSecondStep = async (
  ctx: Context,
  user: User,
  step: { method: string; agreementIds: number[] },
  pid: string | undefined,
  standing: AccountStanding,
) => {
  const all = methodsOf(standing);
  if (all.length === 0) {
    if (step.method === 'password' && pid !== undefined && ctx.config.secondFactorProducts.includes(pid)) fail('E_14');
    return;
  }
  // After a passkey without user verification, the second factor is another one than a passkey.
  const methods = step.method === PASSKEY_STEP ? all.filter((m) => m !== 'passkey') : all;
  if (methods.length === 0) fail('E_13', 'This passkey did not verify you (PIN or fingerprint); sign in another way.');
  // The challenge keeps what the finish signs in with: the step, its agreements and its product.
  const data = { method: step.method, agreement_ids: step.agreementIds, ...(pid === undefined ? {} : { pid }) };
  const challenge = await issueTicket(
    ctx,
    'second_factor',
    `user:${user.id}`,
    ctx.config.secondFactorChallengeSeconds,
    data,
  );
  throw new SecondFactorRequired(challenge, methods);
};

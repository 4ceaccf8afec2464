/**
 * The second step of a sign-in. A first step that passed for an account with a second factor ends in
 * E_11 with a challenge instead of a session: a single-use ticket bound to the account and that step
 * (its method, product and agreements). Finishing spends it with a proof and signs in as the first
 * step would have. A passkey alone is both steps only with user verification (it is something held
 * and, with the UV flag, something known or is); without it, it is the first step, and the account's
 * other factor is asked for.
 */
import type { Context } from '../../context.ts';
import { fail, RefusedForNow } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import { requireProduct } from '../platform/products.ts';
import { countedAddress } from '../security/counted-address.ts';
import { peekTicket, spendTicket } from '../security/tickets.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from '../sign-in/session-answer.ts';
import { passkeyAssertionOptions, verifyPasskeyAssertion } from './passkeys.ts';
import { PASSKEY_STEP, proveSecondFactor, type SecondFactorProof } from './second-factor.ts';

interface FirstStep {
  userId: number;
  method: string;
  agreementIds: number[];
  /** The product the first step signed in to. */
  pid: string | undefined;
}
const firstStepOf = (facts: { subject: string; data: Record<string, unknown> } | undefined): FirstStep => {
  const userId = Number(facts?.subject.replace(/^user:/, ''));
  const method = facts?.data.method;
  if (!facts || !Number.isSafeInteger(userId) || typeof method !== 'string') {
    return fail('E_12', 'This sign-in step has expired or was already used. Sign in again.');
  }
  const ids = facts.data.agreement_ids;
  const pid = typeof facts.data.pid === 'string' ? facts.data.pid : undefined;
  return { userId, method, agreementIds: Array.isArray(ids) ? ids.filter(Number.isSafeInteger) : [], pid };
};

/** Options for a passkey answering the challenge: only that account's passkeys. */
export const challengePasskeyOptions = async (ctx: Context, challenge: string) => {
  const step = firstStepOf(await peekTicket(ctx, 'second_factor', challenge));
  return passkeyAssertionOptions(ctx, 'second-factor', step.userId);
};

/**
 * Finishes a sign-in: the proof is checked first (a wrong one leaves the challenge for another try),
 * then the challenge is spent, then a recovery code: of two finishes racing with two right proofs, one
 * gets a session and the other has spent nothing.
 */
export const finishSignIn = async (
  ctx: Context,
  input: SecondFactorProof & { mfa_challenge: string },
  request: SignInRequest,
): Promise<SignedIn> => {
  const step = firstStepOf(await peekTicket(ctx, 'second_factor', input.mfa_challenge));
  const claim = async () => firstStepOf(await spendTicket(ctx, 'second_factor', input.mfa_challenge));
  await proveSecondFactor(
    ctx,
    step.userId,
    input,
    { purpose: 'second-factor', firstStep: step.method, claim },
    request.ip,
  );
  const user = (await findUserById(ctx.db, step.userId)) ?? fail('E_12');
  const signedInTo = { ...request, pid: step.pid, secondStepDone: true };
  return signIn(ctx, user, `${step.method}+second_factor`, signedInTo, step.agreementIds);
};

/** Options an anonymous caller may ask for per minute and IP: each is a stored ceremony (expiring with it). */
const OPTIONS_PER_MINUTE = 60;

/** Options for a sign-in by passkey alone, rationed per IP. */
export const passkeySignInOptions = async (ctx: Context, ip: string) => {
  const rationKey = `passkey-options-ip:${countedAddress(ctx, ip)}`;
  if ((await ctx.counters.hit(rationKey, 60)) > OPTIONS_PER_MINUTE) {
    throw new RefusedForNow('AC3_23', await ctx.counters.ttl(rationKey));
  }
  return passkeyAssertionOptions(ctx, 'sign-in');
};

export const signInWithPasskey = async (
  ctx: Context,
  input: { pid: string; response: unknown; agreement_ids?: number[] | undefined },
  request: SignInRequest,
): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  const { userId, userVerified } = await verifyPasskeyAssertion(ctx, input.response, 'sign-in');
  const user = (await findUserById(ctx.db, userId)) ?? fail('E_13');
  return signIn(ctx, user, PASSKEY_STEP, { ...request, secondStepDone: userVerified }, agreements);
};

/**
 * The second step of a sign-in. A first step that passed for an account with a second factor ends in
 * E_11 with a challenge instead of a session: a single-use ticket bound to the account and that step
 * (its method, product and agreements). Finishing spends it with a proof and signs in as the first
 * step would have. A passkey alone is both steps (it is something held and, with user verification,
 * something known or is).
 */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import { requireProduct } from '../platform/products.ts';
import { peekTicket, spendTicket } from '../security/tickets.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from '../sign-in/session-answer.ts';
import { passkeyAssertionOptions, verifyPasskeyAssertion } from './passkeys.ts';
import { proveSecondFactor, type SecondFactorProof } from './second-factor.ts';

interface FirstStep {
  userId: number;
  method: string;
  agreementIds: number[];
}
const firstStepOf = (facts: { subject: string; data: Record<string, unknown> } | undefined): FirstStep => {
  const userId = Number(facts?.subject.replace(/^user:/, ''));
  const method = facts?.data.method;
  if (!facts || !Number.isSafeInteger(userId) || typeof method !== 'string') {
    return fail('E_12', 'This sign-in step has expired or was already used. Sign in again.');
  }
  const ids = facts.data.agreement_ids;
  return { userId, method, agreementIds: Array.isArray(ids) ? ids.filter(Number.isSafeInteger) : [] };
};

/** Options for a passkey answering the challenge: only that account's passkeys. */
export const challengePasskeyOptions = async (ctx: Context, challenge: string) => {
  const step = firstStepOf(await peekTicket(ctx, 'second_factor', challenge));
  return passkeyAssertionOptions(ctx, 'second-factor', step.userId);
};

/** Finishes a sign-in: the proof first (a wrong one leaves the challenge for another try), then the challenge is spent. */
export const finishSignIn = async (
  ctx: Context,
  input: SecondFactorProof & { mfa_challenge: string },
  request: SignInRequest,
): Promise<SignedIn> => {
  const step = firstStepOf(await peekTicket(ctx, 'second_factor', input.mfa_challenge));
  await proveSecondFactor(ctx, step.userId, input, 'second-factor', request.ip);
  // Spent once: two finishes racing with two right proofs get one session.
  firstStepOf(await spendTicket(ctx, 'second_factor', input.mfa_challenge));
  const user = (await findUserById(ctx.db, step.userId)) ?? fail('E_12');
  return signIn(ctx, user, `${step.method}+second_factor`, { ...request, secondStepDone: true }, step.agreementIds);
};

export const passkeySignInOptions = (ctx: Context) => passkeyAssertionOptions(ctx, 'sign-in');

export const signInWithPasskey = async (
  ctx: Context,
  input: { pid: string; response: unknown; agreement_ids?: number[] | undefined },
  request: SignInRequest,
): Promise<SignedIn> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  const userId = await verifyPasskeyAssertion(ctx, input.response, 'sign-in');
  const user = (await findUserById(ctx.db, userId)) ?? fail('E_13');
  return signIn(ctx, user, 'passkey', { ...request, secondStepDone: true }, agreements);
};

/**
 * Setting up and removing second factors from the account centre. Adding or removing a factor, and
 * new recovery codes, need a recent proof (step-up.ts): a stolen token alone must not be able to
 * swap the factor that guards the account. Once the account has a factor, each of these changes also
 * needs a session that passed it (requireFactorForAnother): the password alone must not add, replace
 * or strip what stands for the factor. The first factor set up also makes the recovery codes.
 */
import type { RecoveryCodes, SecondFactorStatus } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import {
  deletePasskey,
  deleteSecondFactors,
  deleteTotp,
  renamePasskey,
  unusedRecoveryCodes,
  userPasskeys,
} from '../../store/account/second-factor.ts';
import { markSessionSecondFactor, sessionPassedSecondFactor } from '../../store/sessions/sessions.ts';
import { audit } from '../admin/operations.ts';
import { OPERATOR_ROLE } from '../admin/operators.ts';
import { securityEvent } from '../security/events.ts';
import type { SignedInSession } from '../sessions/tokens.ts';
import { markSteppedUp, requireStepUp } from '../sign-in/step-up.ts';
import { passkeyAssertionOptions, passkeyRegistrationOptions, registerPasskey } from './passkeys.ts';
import { newRecoveryCodes } from './recovery-codes.ts';
import { hasSecondFactor, proveSecondFactor, type SecondFactorProof } from './second-factor.ts';
import { checkTotpCode, hasConfirmedTotp, startTotpSetup } from './totp.ts';

/** Operators keep a second factor while OPERATOR_MFA=required. */
const mustKeepOne = (ctx: Context, session: SignedInSession) =>
  session.user.role === OPERATOR_ROLE && ctx.config.operatorMfa === 'required';

export const secondFactorStatus = async (ctx: Context, session: SignedInSession): Promise<SecondFactorStatus> => {
  const [totp, passkeys, left] = await Promise.all([
    hasConfirmedTotp(ctx, session.userId),
    userPasskeys(ctx.db, session.userId),
    unusedRecoveryCodes(ctx.db, session.userId),
  ]);
  return {
    totp,
    passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, created_at: p.created_at, last_used_at: p.last_used_at })),
    recovery_codes_left: left,
    required: mustKeepOne(ctx, session),
  };
};

/** The session proved a second factor (set one up, or answered with one): recorded on the session. */
const provedInSession = (ctx: Context, session: SignedInSession) =>
  markSessionSecondFactor(ctx.db, session.sessionId, ctx.now());

const changed = (ctx: Context, session: SignedInSession, ip: string, reason: string) =>
  securityEvent(ctx, { event: 'second_factor_changed', userId: session.userId, ip, reason });

/** Recovery codes for an account that has none yet (its first factor), else nothing. */
const firstRecoveryCodes = async (ctx: Context, userId: number): Promise<Partial<RecoveryCodes>> =>
  (await unusedRecoveryCodes(ctx.db, userId)) > 0 ? {} : { recovery_codes: await newRecoveryCodes(ctx, userId) };

const accountLabel = (session: SignedInSession) =>
  session.user.username ?? session.user.phone ?? session.user.email ?? `user ${session.userId}`;

/**
 * A factor added to, replaced on (new recovery codes) or removed from an account that has one needs a
 * session that passed the factor it has (at sign-in, by a recovery code too, or by a step-up with it):
 * a password alone must not add a factor of its own, mint recovery codes (which then stand for the
 * factor everywhere) or strip the factor off. E_7: the client asks for that proof. Whoever lost every
 * factor and every recovery code gets them reset by an operator (resetSecondFactor), not here.
 */
const requireFactorForAnother = async (ctx: Context, session: SignedInSession, action: string, ip: string) => {
  await requireStepUp(ctx, session, action, ip);
  if (!(await hasSecondFactor(ctx, session.userId))) return;
  if (await sessionPassedSecondFactor(ctx.db, session.sessionId)) return;
  securityEvent(ctx, { event: 'step_up_required', userId: session.userId, ip, reason: `${action}: second factor` });
  fail('E_7', 'Confirm with your second factor (authenticator app, passkey or a recovery code) first.');
};

export const startTotp = async (ctx: Context, session: SignedInSession, ip: string) => {
  await requireFactorForAnother(ctx, session, 'second factor: authenticator app', ip);
  return startTotpSetup(ctx, session.userId, accountLabel(session));
};

export const confirmTotp = async (ctx: Context, session: SignedInSession, code: string, ip: string) => {
  if (!(await checkTotpCode(ctx, session.userId, code.trim(), true))) fail('E_12');
  await provedInSession(ctx, session);
  changed(ctx, session, ip, 'authenticator app added');
  return firstRecoveryCodes(ctx, session.userId);
};

/** Refuses to remove the last factor of an account that must keep one. */
const refuseLastFactor = async (ctx: Context, session: SignedInSession, removing: 'totp' | number) => {
  if (!mustKeepOne(ctx, session)) return;
  const totp = removing !== 'totp' && (await hasConfirmedTotp(ctx, session.userId));
  const others = (await userPasskeys(ctx.db, session.userId)).filter((p) => p.id !== removing);
  if (!totp && others.length === 0) fail('E_4', 'An operator must keep a second factor; add another one first.');
};

export const removeTotp = async (ctx: Context, session: SignedInSession, ip: string) => {
  await requireFactorForAnother(ctx, session, 'second factor: remove authenticator app', ip);
  await refuseLastFactor(ctx, session, 'totp');
  await deleteTotp(ctx.db, session.userId);
  changed(ctx, session, ip, 'authenticator app removed');
};

export const startPasskeyRegistration = async (ctx: Context, session: SignedInSession, ip: string) => {
  await requireFactorForAnother(ctx, session, 'second factor: passkey', ip);
  return passkeyRegistrationOptions(ctx, session.user);
};

export const addPasskey = async (
  ctx: Context,
  session: SignedInSession,
  input: { name: string; response: unknown },
  ip: string,
) => {
  const { id } = await registerPasskey(ctx, session.user, input.name.trim() || 'Passkey', input.response);
  await provedInSession(ctx, session);
  changed(ctx, session, ip, 'passkey added');
  return { id, ...(await firstRecoveryCodes(ctx, session.userId)) };
};

export const namePasskey = async (ctx: Context, session: SignedInSession, id: number, name: string) => {
  if (!(await renamePasskey(ctx.db, session.userId, id, name.trim() || 'Passkey'))) fail('E_2');
};

export const removePasskey = async (ctx: Context, session: SignedInSession, id: number, ip: string) => {
  await requireFactorForAnother(ctx, session, 'second factor: remove passkey', ip);
  await refuseLastFactor(ctx, session, id);
  if (!(await deletePasskey(ctx.db, session.userId, id))) fail('E_2');
  changed(ctx, session, ip, 'passkey removed');
};

export const replaceRecoveryCodes = async (
  ctx: Context,
  session: SignedInSession,
  ip: string,
): Promise<RecoveryCodes> => {
  await requireFactorForAnother(ctx, session, 'second factor: new recovery codes', ip);
  if (!(await hasSecondFactor(ctx, session.userId))) fail('E_14');
  changed(ctx, session, ip, 'recovery codes replaced');
  return { recovery_codes: await newRecoveryCodes(ctx, session.userId) };
};

/** A verified second factor is a step-up proof like a password. */
export const stepUpPasskeyOptions = (ctx: Context, session: SignedInSession) =>
  passkeyAssertionOptions(ctx, 'step-up', session.userId);

export const stepUpBySecondFactor = async (
  ctx: Context,
  session: SignedInSession,
  proof: SecondFactorProof,
  ip: string,
) => {
  const how = await proveSecondFactor(ctx, session.userId, proof, { purpose: 'step-up' }, ip);
  await provedInSession(ctx, session);
  await markSteppedUp(ctx, session, how, ip);
};

/** An operator removes every second factor of a user who lost them (recorded in the audit log). */
export const resetSecondFactor = async (ctx: Context, operatorId: number, userId: number) => {
  await deleteSecondFactors(ctx.db, userId);
  await audit(ctx, operatorId, 'user.second-factor.reset', `user:${userId}`);
  securityEvent(ctx, { event: 'second_factor_changed', userId, reason: `reset by operator ${operatorId}` });
};

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server. Each ceremony's challenge is a single-use ticket
 * whose value is the challenge itself, so the browser's answer names the ticket it answers; the
 * ticket says what the ceremony is for and, except for a sign-in by passkey alone, whose it is.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { siteOrigins } from '../../config/site-origins.ts';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import { findPasskeyByCredential, insertPasskey, usePasskey, userPasskeys } from '../../store/account/second-factor.ts';
import type { User } from '../../store/schema.ts';
import { randomToken } from '../security/hashing.ts';
import { issueTicket, spendTicket } from '../security/tickets.ts';

/** What a ceremony's challenge was issued for. */
export type PasskeyPurpose = 'register' | 'sign-in' | 'second-factor' | 'step-up';

const CEREMONY_SECONDS = 300;
const RP_NAME = 'EduPass';

const rpId = (ctx: Context) => new URL(ctx.config.publicUrl).hostname;

const newCeremony = async (ctx: Context, purpose: PasskeyPurpose, userId: number | undefined) => {
  const ticket = randomToken(32);
  await issueTicket(
    ctx,
    'webauthn',
    userId === undefined ? '' : `user:${userId}`,
    CEREMONY_SECONDS,
    { purpose },
    ticket,
  );
  return ticket;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The ceremony an answer belongs to (spent now, whatever the answer turns out to be). */
const spendCeremony = async (ctx: Context, answer: unknown, purpose: PasskeyPurpose, userId: number | undefined) => {
  const clientData = isObject(answer) && isObject(answer.response) ? answer.response.clientDataJSON : undefined;
  if (typeof clientData !== 'string') return fail('E_13');
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as Record<string, unknown>)
      .challenge;
  } catch {
    return fail('E_13');
  }
  if (typeof challenge !== 'string') return fail('E_13');
  const ticket = Buffer.from(challenge, 'base64url').toString('utf8');
  const facts = await spendTicket(ctx, 'webauthn', ticket);
  const subject = userId === undefined ? '' : `user:${userId}`;
  if (!facts || facts.data.purpose !== purpose || facts.subject !== subject) fail('E_13');
  return challenge;
};

const transportsOf = (json: string): AuthenticatorTransport[] => JSON.parse(json) as AuthenticatorTransport[];

/** Options for `navigator.credentials.create`: a discoverable credential, none the user already has. */
export const passkeyRegistrationOptions = async (ctx: Context, user: User) => {
  const existing = await userPasskeys(ctx.db, user.id);
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rpId(ctx),
    userName: user.username ?? user.phone ?? user.email ?? `user ${user.id}`,
    userID: new TextEncoder().encode(`edupass:${user.id}`),
    challenge: await newCeremony(ctx, 'register', user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
};

/** Verifies the browser's answer to the registration options and keeps the new passkey under `name`. */
export const registerPasskey = async (ctx: Context, user: User, name: string, answer: unknown) => {
  const challenge = await spendCeremony(ctx, answer, 'register', user.id);
  const verified = await verifyRegistrationResponse({
    response: answer as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: siteOrigins(ctx.config),
    expectedRPID: rpId(ctx),
    requireUserVerification: false,
  }).catch(() => fail('E_13'));
  if (!verified.verified) return fail('E_13');
  const { credential } = verified.registrationInfo;
  const taken = await findPasskeyByCredential(ctx.db, credential.id);
  if (taken) fail('E_13', 'This passkey is already registered.');
  return insertPasskey(ctx.db, {
    user_id: user.id,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    name,
    created_at: ctx.now(),
    last_used_at: null,
  });
};

/** Options for `navigator.credentials.get`: any passkey of this site, or only the user's. */
export const passkeyAssertionOptions = async (
  ctx: Context,
  purpose: Exclude<PasskeyPurpose, 'register'>,
  userId?: number,
) => {
  const allowed = userId === undefined ? [] : await userPasskeys(ctx.db, userId);
  if (userId !== undefined && allowed.length === 0) fail('E_13', 'The account has no passkey.');
  return generateAuthenticationOptions({
    rpID: rpId(ctx),
    challenge: await newCeremony(ctx, purpose, userId),
    userVerification: 'preferred',
    allowCredentials: allowed.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
  });
};

export interface PasskeyAssertion {
  /** Whose passkey signed the answer. */
  userId: number;
  /** The authenticator verified the user (PIN, biometrics): the UV flag. Without it, a passkey is only held. */
  userVerified: boolean;
}

/**
 * The user whose passkey signed the answer, after checking the signature and moving its counter on
 * (once: a second use of the same answer fails on the spent ceremony). E_13 for anything else.
 */
export const verifyPasskeyAssertion = async (
  ctx: Context,
  answer: unknown,
  purpose: Exclude<PasskeyPurpose, 'register'>,
  userId?: number,
): Promise<PasskeyAssertion> => {
  const challenge = await spendCeremony(ctx, answer, purpose, userId);
  const credentialId = isObject(answer) && typeof answer.id === 'string' ? answer.id : '';
  const passkey = await findPasskeyByCredential(ctx.db, credentialId);
  if (!passkey || (userId !== undefined && passkey.user_id !== userId)) return fail('E_13');
  let userVerified = false;
  try {
    const verified = await verifyAuthenticationResponse({
      response: answer as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: siteOrigins(ctx.config),
      expectedRPID: rpId(ctx),
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: false,
    });
    const moved = await usePasskey(
      ctx.db,
      passkey.id,
      passkey.counter,
      verified.authenticationInfo.newCounter,
      ctx.now(),
    );
    if (!verified.verified || !moved) fail('E_13');
    userVerified = verified.authenticationInfo.userVerified;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    fail('E_13');
  }
  return { userId: passkey.user_id, userVerified };
};

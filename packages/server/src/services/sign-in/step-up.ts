/**
 * Step-up: before a change that could hand the account to someone holding only a stolen token (a new
 * phone, a first password, a password by phone code, a third-party link added or removed) or that
 * would sign the owner out of the devices where they would see it (the other sessions ended), the
 * session must hold a recent proof — its sign-in, or a password, a code to the account's own phone
 * or e-mail, a second factor, or a round trip to the WeChat or QQ identity linked to the account,
 * given since — no older than STEP_UP_SECONDS. Without one the call answers E_7 and the
 * client asks for the proof, then repeats the call.
 *
 * The proof is a mark on the session kept in the shared counters (database or Redis) as a window
 * of STEP_UP_SECONDS: every server process sees it, and it lapses by itself.
 */
import type { StepUpStatus } from '@edupass/protocol';
import { OAUTH_PROVIDERS, type OauthProviderName } from '../../adapters/oauth-provider.ts';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import { findUserOauth, userOauths } from '../../store/account/oauths.ts';
import type { User } from '../../store/schema.ts';
import { sessionKey, sessionStartedAt } from '../../store/sessions/sessions.ts';
import { verifyCode } from '../codes/one-time-codes.ts';
import { requestCode } from '../codes/requests.ts';
import { identify, oauthProvider } from '../oauth/providers.ts';
import { checkPasswordGuess } from '../passwords/guesses.ts';
import { secondFactorMethods } from '../second-factor/second-factor.ts';
import { securityEvent } from '../security/events.ts';
import { loginLockKey } from '../security/rate-limits.ts';
import type { SignedInSession } from '../sessions/tokens.ts';

// Under the session's stored key: the id itself is a bearer value and is never stored.
const markKey = (sessionId: string) => `step-up:${sessionKey(sessionId)}`;

/** Where a step-up code goes: the account's phone, or its e-mail when it has no phone. */
const codeTarget = (user: User) => user.phone ?? user.email ?? undefined;

/** Seconds the session's proof still holds: the later of its sign-in and its last step-up. */
const secondsLeft = async (ctx: Context, session: SignedInSession): Promise<number> => {
  const window = ctx.config.stepUpSeconds;
  const marked = (await ctx.counters.peek(markKey(session.sessionId))) > 0;
  const fromMark = marked ? await ctx.counters.ttl(markKey(session.sessionId)) : 0;
  const started = await sessionStartedAt(ctx.db, session.sessionId);
  const fromSignIn = started === undefined ? 0 : Math.floor((started + window * 1000 - ctx.now()) / 1000);
  return Math.max(0, fromMark, fromSignIn);
};

/** The providers linked to the user that this server can send a browser to (set up, not `off`). */
const linkedProviders = async (ctx: Context, userId: number): Promise<OauthProviderName[]> => {
  const linked = new Set((await userOauths(ctx.db, userId)).map((link) => link.provider));
  return OAUTH_PROVIDERS.filter((name) => linked.has(name) && ctx.config[name].mode !== 'off');
};

export const stepUpStatus = async (ctx: Context, session: SignedInSession): Promise<StepUpStatus> => {
  const left = await secondsLeft(ctx, session);
  const { user } = session;
  return {
    fresh: left > 0,
    expires_in: left,
    methods: [
      ...(user.password_hash ? (['password'] as const) : []),
      ...(user.phone ? (['sms'] as const) : user.email ? (['email'] as const) : []),
      ...(await secondFactorMethods(ctx, user.id)).filter((m) => m !== 'recovery_code'),
      ...(await linkedProviders(ctx, user.id)),
    ],
  };
};

/** Refuses with E_7 unless the session holds a recent proof; `action` names the change for the log. */
export const requireStepUp = async (ctx: Context, session: SignedInSession, action: string, ip?: string) => {
  if ((await secondsLeft(ctx, session)) > 0) return;
  securityEvent(ctx, { event: 'step_up_required', userId: session.userId, ...(ip ? { ip } : {}), reason: action });
  fail('E_7');
};

/** Records a proof given now (a password, a code, a second factor). */
export const markSteppedUp = async (ctx: Context, session: SignedInSession, how: string, ip: string) => {
  const key = markKey(session.sessionId);
  await ctx.counters.reset(key);
  await ctx.counters.hit(key, ctx.config.stepUpSeconds);
  securityEvent(ctx, { event: 'step_up_passed', userId: session.userId, ip, reason: how });
};

/** A password proof: a guess like any other, against the same lock as sign-in. */
export const stepUpByPassword = async (ctx: Context, session: SignedInSession, password: string, ip: string) => {
  const { user } = session;
  if (!user.password_hash) fail('AC3_16', 'No password is set; confirm with a code instead.');
  const ok = await checkPasswordGuess(ctx, {
    lockKey: loginLockKey(user, ''),
    passwordHash: user.password_hash,
    password,
    userId: user.id,
    ip,
    failure: 'step_up_failed',
  });
  if (!ok) fail('AC3_9', 'The password is wrong.');
  await markSteppedUp(ctx, session, 'password', ip);
};

export const sendStepUpCode = async (
  ctx: Context,
  session: SignedInSession,
  input: { pid: string; ip: string; captchaTicket: string | undefined },
) => {
  const { user } = session;
  const target = codeTarget(user) ?? fail('AC3_7', 'The account has no phone or e-mail to send a code to.');
  await requestCode(
    ctx,
    'step_up',
    { target, pid: input.pid, ip: input.ip, captchaTicket: input.captchaTicket, user },
    user.phone ? 'sms' : 'email',
  );
};

export const stepUpByCode = async (ctx: Context, session: SignedInSession, captcha: string, ip: string) => {
  const target = codeTarget(session.user) ?? fail('AC3_7');
  try {
    await verifyCode(ctx, target, 'step_up', captcha);
  } catch (error) {
    if (error instanceof ApiError) {
      securityEvent(ctx, { event: 'step_up_failed', userId: session.userId, ip, reason: `code: ${error.code}` });
    }
    throw error;
  }
  await markSteppedUp(ctx, session, session.user.phone ? 'sms code' : 'e-mail code', ip);
};

/**
 * A round trip to WeChat or QQ: the code the provider handed back (its state already checked against
 * this browser by the route; `redirectUri` from it) must name the identity linked to the account.
 */
export const stepUpByOauth = async (
  ctx: Context,
  session: SignedInSession,
  name: OauthProviderName,
  step: { code: string; redirectUri: string },
  ip: string,
) => {
  const link = (await findUserOauth(ctx.db, session.userId, name)) ?? fail('AC3_19', 'No such account is linked.');
  const identity = await identify(ctx, oauthProvider(ctx, name), step.code, step.redirectUri);
  const same = identity.openid === link.openid || (!!link.unionid && identity.unionid === link.unionid);
  if (!same) {
    securityEvent(ctx, { event: 'step_up_failed', userId: session.userId, ip, reason: `${name}: another identity` });
    fail('AC3_16', 'That is not the account linked to yours; sign in to the one you linked.');
  }
  await markSteppedUp(ctx, session, name, ip);
};

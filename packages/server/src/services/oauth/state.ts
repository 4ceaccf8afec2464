/**
 * The OAuth `state`, bound to the browser that started the sign-in: the authorize step puts a random
 * state in the provider URL and, signed, in an HttpOnly cookie with the redirect URI (QQ wants it
 * again at the code exchange). The code step must bring the same state from the same browser. This
 * stops login CSRF (a victim's browser signed in as the attacker) and, worse, an attacker's WeChat
 * being bound to a victim's account through a forged callback link.
 */
import type { OauthProviderName } from '../../adapters/oauth-provider.ts';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { hmac, randomToken, safeEqual } from '../security/hashing.ts';

/** How long a started sign-in may take (scanning a QR code included). */
export const STATE_TTL_SECONDS = 10 * 60;

export const stateCookieName = (provider: OauthProviderName) => `edupass_oauth_${provider}`;

/** What a state is for: a WeChat or QQ sign-in, or a school connector's (`school:<code>…`). */
type StateUse = OauthProviderName | `school:${string}`;

interface StatePayload {
  /** provider */
  p: StateUse;
  /** state */
  s: string;
  /** redirect URI */
  r: string;
  /** expiry, unix ms */
  e: number;
}

const sign = (ctx: Context, payload: string) => hmac(ctx.keys.codes, `oauth-state:${payload}`);

export interface StartedSignIn {
  state: string;
  cookie: string;
}

export const startState = (ctx: Context, provider: StateUse, redirectUri: string): StartedSignIn => {
  const state = randomToken(24);
  const payload = Buffer.from(
    JSON.stringify({ p: provider, s: state, r: redirectUri, e: ctx.now() + STATE_TTL_SECONDS * 1000 }),
  ).toString('base64url');
  return { state, cookie: `${payload}.${sign(ctx, payload)}` };
};

const readCookie = (ctx: Context, cookie: string | undefined): StatePayload | undefined => {
  if (!cookie) return undefined;
  const [payload, signature, ...rest] = cookie.split('.');
  if (!payload || !signature || rest.length > 0 || !safeEqual(signature, sign(ctx, payload))) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { p, s, r, e } = value as Record<string, unknown>;
    return typeof p === 'string' && typeof s === 'string' && typeof r === 'string' && typeof e === 'number'
      ? { p: p as StateUse, s, r, e }
      : undefined;
  } catch {
    return undefined;
  }
};

/** The started sign-in a step's state matches, when `accepts` its use; AC3_16 otherwise. */
const checkStarted = (
  ctx: Context,
  accepts: (use: StateUse) => boolean,
  cookie: string | undefined,
  state: string | undefined,
): StatePayload => {
  const started = readCookie(ctx, cookie);
  if (!started || !accepts(started.p) || started.e <= ctx.now()) {
    return fail('AC3_16', 'This sign-in was not started in this browser or has expired. Start it again.');
  }
  if (state === undefined || !safeEqual(state, started.s)) {
    return fail('AC3_16', 'The sign-in state does not match this browser. Start the sign-in again.');
  }
  return started;
};

/**
 * Checks the state a code step brings against this browser's cookie; the redirect URI the code was
 * issued to. A missing, forged, expired or other-provider state is AC3_16.
 */
export const checkState = (
  ctx: Context,
  provider: StateUse,
  cookie: string | undefined,
  state: string | undefined,
): string => checkStarted(ctx, (use) => use === provider, cookie, state).r;

/**
 * A school sign-in's state (`school:<code>` and what follows it): its use, redirect URI and when it
 * started (unix ms: a sign-in the school's system must have asked the password for came after it).
 */
export const checkSchoolState = (ctx: Context, code: string, cookie: string | undefined, state: string | undefined) => {
  const started = checkStarted(
    ctx,
    (use) => use === `school:${code}` || use.startsWith(`school:${code}:`),
    cookie,
    state,
  );
  return { use: started.p, redirect: started.r, startedAt: started.e - STATE_TTL_SECONDS * 1000 };
};

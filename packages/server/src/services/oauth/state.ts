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

interface StatePayload {
  /** provider */
  p: OauthProviderName;
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

export const startState = (ctx: Context, provider: OauthProviderName, redirectUri: string): StartedSignIn => {
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
      ? { p: p as OauthProviderName, s, r, e }
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Checks the state a code step brings against this browser's cookie; the redirect URI the code was
 * issued to. A missing, forged, expired or other-provider state is AC3_16.
 */
export const checkState = (
  ctx: Context,
  provider: OauthProviderName,
  cookie: string | undefined,
  state: string | undefined,
): string => {
  const started = readCookie(ctx, cookie);
  if (!started || started.p !== provider || started.e <= ctx.now()) {
    return fail('AC3_16', 'This sign-in was not started in this browser or has expired. Start it again.');
  }
  if (state === undefined || !safeEqual(state, started.s)) {
    return fail('AC3_16', 'The sign-in state does not match this browser. Start the sign-in again.');
  }
  return started.r;
};

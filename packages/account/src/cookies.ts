import { COOKIE_CLEAR_MAX_AGE, type Env } from '@edupass/protocol';
import { browserDocument, isSecurePage } from './globals.ts';
import type { StoredTokens, TokenStore } from './token-store.ts';

/** Names of the three token cookies (spec §3), before the environment prefix. */
export const TOKEN_COOKIES = { access: 'access_token', type: 'token_type', refresh: 'refresh_token' } as const;

/** Outside production the names carry the environment, so one shared domain can hold several envs' sessions. */
export const cookieNames = (env: Env): Record<keyof StoredTokens, string> => {
  const prefix = env === 'prod' ? '' : `${env}_`;
  return {
    access: prefix + TOKEN_COOKIES.access,
    type: prefix + TOKEN_COOKIES.type,
    refresh: prefix + TOKEN_COOKIES.refresh,
  };
};

export interface CookieTokenStoreOptions {
  env: Env;
  /** The shared parent domain; host-only cookies when unset. */
  domain?: string | undefined;
}

const decode = (raw: string): string => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** The three token cookies on the product's shared domain, each with max age = its expires_in. */
export const cookieTokenStore = ({ env, domain }: CookieTokenStoreOptions): TokenStore => {
  const names = cookieNames(env);
  const write = (name: string, value: string, maxAge: number) => {
    const doc = browserDocument();
    if (!doc) return;
    doc.cookie =
      `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAge}; samesite=lax` +
      (domain ? `; domain=${domain}` : '') +
      (isSecurePage() ? '; secure' : '');
  };
  return {
    get: () => {
      const found: Record<string, string> = {};
      for (const pair of (browserDocument()?.cookie ?? '').split('; ')) {
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq);
        // The first of two same-named cookies is the most specific one (longest path).
        if (eq > 0 && !(name in found)) found[name] = decode(pair.slice(eq + 1));
      }
      const tokens: StoredTokens = {};
      for (const key in names) {
        const value = found[names[key as keyof StoredTokens]];
        if (value) tokens[key as keyof StoredTokens] = value;
      }
      return tokens;
    },
    set: ({ access, refresh }) => {
      write(names.access, access.token, access.expires_in);
      write(names.type, access.type, access.expires_in);
      write(names.refresh, refresh.token, refresh.expires_in);
    },
    clear: () => {
      for (const name of Object.values(names)) write(name, '', COOKIE_CLEAR_MAX_AGE);
    },
  };
};

/**
 * The development provider's memory: test identities, issued codes and access tokens. Identities are
 * derived from their name, so "小明" is the same person (same openid) after a restart and a link made
 * yesterday still signs in today; only the list of names created on the screen is forgotten.
 */

import { createHash, randomBytes } from 'node:crypto';
import { HOUR_MS } from '@edupass/protocol';
import type { OauthProviderName } from '../adapters/oauth-provider.ts';

export interface DevIdentity {
  name: string;
  openid: string;
  unionid: string;
  nickname: string;
  avatarUrl: string;
}

interface Grant {
  identity: DevIdentity;
  appId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

const CODE_TTL_MS = 5 * 60_000;
const TOKEN_TTL_MS = 2 * HOUR_MS;
const DEFAULT_NAMES = ['小明', '小红', '李老师'] as const;

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest();

export const devIdentityStore = (provider: OauthProviderName, avatarBase: () => string) => {
  const created = new Set<string>();
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, { identity: DevIdentity; appId: string; expiresAt: number }>();

  const identity = (appId: string, name: string): DevIdentity => ({
    name,
    // WeChat openids look like o6_bmjrPTlm6_2sgVt7hMZOPfL2M (28 chars); QQ's are 32 upper-case hex.
    openid:
      provider === 'wechat'
        ? `o${digest(provider, appId, name).toString('base64url').slice(0, 27)}`
        : digest(provider, appId, name).toString('hex').slice(0, 32).toUpperCase(),
    unionid: `${provider === 'wechat' ? 'oU' : 'UID_'}${digest(provider, 'union', name).toString('base64url').slice(0, 26)}`,
    nickname: name,
    avatarUrl: `${avatarBase()}/avatar/${digest(name).toString('hex').slice(0, 12)}.svg`,
  });

  return {
    names: () => [...DEFAULT_NAMES, ...[...created].filter((n) => !(DEFAULT_NAMES as readonly string[]).includes(n))],
    identity,
    remember: (name: string) => created.add(name),
    /** A one-time code for `identity`, as the provider hands it to the redirect URI. */
    issueCode(appId: string, name: string, redirectUri: string, now: number) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        identity: identity(appId, name),
        appId,
        redirectUri,
        expiresAt: now + CODE_TTL_MS,
        used: false,
      });
      return code;
    },
    /** The grant of a code: 'unknown', 'used' or the grant (then marked used). */
    redeemCode(code: string, now: number): Grant | 'unknown' | 'used' {
      const grant = codes.get(code);
      if (!grant || grant.expiresAt <= now) return 'unknown';
      if (grant.used) return 'used';
      grant.used = true;
      return grant;
    },
    issueToken(grant: { identity: DevIdentity; appId: string }, now: number) {
      const token = randomBytes(24).toString('hex').toUpperCase();
      tokens.set(token, { identity: grant.identity, appId: grant.appId, expiresAt: now + TOKEN_TTL_MS });
      return token;
    },
    token(token: string, now: number) {
      const found = tokens.get(token);
      return found && found.expiresAt > now ? found : undefined;
    },
  };
};

export type DevIdentityStore = ReturnType<typeof devIdentityStore>;

/**
 * OpenID Connect Back-Channel Logout 1.0 from a school's education platform: when a person signs out
 * there, the platform posts a logout token, and the EduPass sessions that its sign-ins started end
 * (each sign-in keeps the platform's `sid` and `sub` as HMACs: ../sign-in.ts). The token is
 * verified (sign-in.ts) and taken once by its `jti`, so a copy posted again ends nothing.
 */
import type { Context } from '../../../../context.ts';
import { fail } from '../../../../errors.ts';
import { recordUpstreamToken } from '../../../../store/edu/federation/connectors.ts';
import { hmac } from '../../../security/hashing.ts';
import type { OidcConnector } from '../connectors.ts';
import { endPlatformSignIns } from '../sign-in.ts';
import { readLogoutToken } from './sign-in.ts';

export const platformLogout = async (ctx: Context, connector: OidcConnector, token: string): Promise<void> => {
  const logout = await readLogoutToken(ctx, connector, token);
  const tokenKey = hmac(ctx.keys.codes, `logout-token:${connector.id}:${logout.tokenId}`);
  if (!(await recordUpstreamToken(ctx.db, tokenKey, logout.expiresAt))) {
    ctx.logger.warn({ connector: connector.code }, 'school platform logout token posted again');
    fail('E_1', 'logout_token: this token was used already.');
  }
  const ended = await endPlatformSignIns(ctx, connector, logout);
  ctx.logger.info({ connector: connector.code, ended }, 'school platform logout');
};

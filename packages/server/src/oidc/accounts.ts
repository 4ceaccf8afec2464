/**
 * EduPass users as the provider's accounts: `sub` is the user id; the standard claims come from the
 * profile (in the ID token too when the scope asks, relying-parties.ts). Phone numbers are verified by the code that bound them; an
 * e-mail address is reported verified once a code sent to it was used (sign-up, binding, sign-in,
 * reset), never when an operator's import only wrote it (`users.email_verified`).
 * EduPass keeps no language per user: `locale` is offered by the profile scope but never set. A blocked or deleted user has no account.
 * A child's consent state and whether the application is the platform's own decide which of the
 * scopes' claims leave at all (services/edu/family/disclosure.ts).
 */
import { MINOR_SCOPE, SCOPE_CLAIMS } from '@edupass/protocol';
import type { Account } from 'oidc-provider';
import type { Context } from '../context.ts';
import { disclose, disclosureFor, releasedClaims } from '../services/edu/family/disclosure.ts';
import { minorModeOf } from '../services/edu/family/minor-mode.ts';
import { eduClaims, idTokenEduClaim } from '../services/edu/school/claims.ts';
import { findUserById } from '../services/identity/provider-data.ts';
import type { User } from '../store/schema.ts';

/** The claims each scope releases (OpenID Connect Core §5.4): @edupass/protocol's oidc-claims.ts. */
export { SCOPE_CLAIMS };

export const userClaims = (user: User): Record<string, unknown> => ({
  sub: String(user.id),
  // The full name when the user gave one, else the nickname: what relying parties show as the name.
  name: user.fullname || user.nickname || undefined,
  nickname: user.nickname ?? undefined,
  picture: user.avatar_url || undefined,
  preferred_username: user.username ?? undefined,
  ...(user.email ? { email: user.email, email_verified: user.email_verified === 1 } : {}),
  ...(user.phone ? { phone_number: user.phone, phone_number_verified: user.phone_verified === 1 } : {}),
});

/** What oidc-provider hands findAccount: its request context (the client) and the token being answered. */
export interface AccountRequest {
  kctx?: { oidc?: { client?: { clientId: string } } } | undefined;
  token?: { clientId?: string } | undefined;
}

export const findAccount = async (
  ctx: Pick<Context, 'db' | 'config' | 'now'>,
  sub: string,
  request: AccountRequest = {},
): Promise<Account | undefined> => {
  if (!/^[1-9][0-9]{0,15}$/.test(sub)) return undefined;
  const user = await findUserById(ctx.db, Number(sub));
  // A blocked account, or one frozen until its erasure, is no one to the applications.
  if (user === undefined || user.blocked_at !== null || user.erase_at !== null) return undefined;
  const clientId = request.token?.clientId ?? request.kctx?.oidc?.client?.clientId;
  return {
    accountId: sub,
    // `use` is 'id_token' or 'userinfo': the ID token gets the compact edu claim (claims.ts). What
    // leaves is what the consent state lets this application have (services/edu/family/disclosure.ts).
    claims: async (use: string, scope: string) => {
      const { state, party } = await disclosureFor(ctx, user, clientId);
      const released = releasedClaims(state, party);
      const scopes = scope.split(' ');
      const minor = scopes.includes(MINOR_SCOPE) ? await minorModeOf(ctx, user) : {};
      if (!scopes.includes('edu')) return disclose({ ...userClaims(user), ...minor }, released);
      const { edu, managed_by_school } = await eduClaims(ctx, user);
      const eduClaim = use === 'id_token' ? idTokenEduClaim(edu) : edu;
      return disclose({ ...userClaims(user), edu: eduClaim, managed_by_school, ...minor }, released);
    },
  };
};

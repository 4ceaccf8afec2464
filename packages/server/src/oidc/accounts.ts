/**
 * EduPass users as the provider's accounts: `sub` is the user id; the standard claims come from the
 * profile (in the ID token too when the scope asks, relying-parties.ts). Phone numbers are verified by the code that bound them; an
 * e-mail address is reported verified once a code sent to it was used (sign-up, binding, sign-in,
 * reset), never when an operator's import only wrote it (`users.email_verified`).
 * EduPass keeps no language per user: `locale` is offered by the profile scope but never set. A blocked or deleted user has no account.
 */
import { MINOR_CLAIMS, MINOR_SCOPE } from '@edupass/protocol';
import type { Account } from 'oidc-provider';
import type { Context } from '../context.ts';
import { minorModeOf } from '../services/edu/family/minor-mode.ts';
import { eduClaims, idTokenEduClaim } from '../services/edu/school/claims.ts';
import { findUserById } from '../services/identity/provider-data.ts';
import type { User } from '../store/schema.ts';

/** The claims each scope releases (OpenID Connect Core §5.4). */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'nickname', 'picture', 'preferred_username', 'locale'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  /** The education layer: schools, classes and roles (services/edu/school/claims.ts). */
  edu: ['edu', 'managed_by_school'],
  /** Minor mode: age band, limits, guardian link, consent (services/edu/family/minor-mode.ts). */
  minor: [...MINOR_CLAIMS],
  /** A product's community features (following, posting, messages): withheld while a child's consent is pending. */
  community: [],
} as const;

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

export const findAccount = async (
  ctx: Pick<Context, 'db' | 'config' | 'now'>,
  sub: string,
): Promise<Account | undefined> => {
  if (!/^[1-9][0-9]{0,15}$/.test(sub)) return undefined;
  const user = await findUserById(ctx.db, Number(sub));
  // A blocked account, or one frozen until its erasure, is no one to the applications.
  if (user === undefined || user.blocked_at !== null || user.erase_at !== null) return undefined;
  return {
    accountId: sub,
    // `use` is 'id_token' or 'userinfo': the ID token gets the compact edu claim (claims.ts).
    claims: async (use: string, scope: string) => {
      const scopes = scope.split(' ');
      const minor = scopes.includes(MINOR_SCOPE) ? await minorModeOf(ctx, user) : {};
      if (!scopes.includes('edu')) return { ...userClaims(user), ...minor };
      const { edu, managed_by_school } = await eduClaims(ctx, user);
      return { ...userClaims(user), edu: use === 'id_token' ? idTokenEduClaim(edu) : edu, managed_by_school, ...minor };
    },
  };
};

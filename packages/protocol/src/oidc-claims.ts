/**
 * The claims each OpenID Connect scope releases (OpenID Connect Core §5.4), as far as the account
 * has them and its consent state lets them leave (docs/education.md, "What applications receive").
 * The consent screen names every one in words a child understands (the web client's `claim.*` texts).
 */
import { MINOR_CLAIMS, MINOR_SCOPE } from './guardian-link-routes.ts';
import { COMMUNITY_SCOPE } from './guardian-routes.ts';

export const SCOPE_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'nickname', 'picture', 'preferred_username', 'locale'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  /** The education layer: schools, classes and roles. */
  edu: ['edu', 'managed_by_school'],
  /** Minor mode: age band, limits, guardian link, consent. */
  [MINOR_SCOPE]: MINOR_CLAIMS,
  /** A product's community features (following, posting, messages): withheld while a child's consent is pending. */
  [COMMUNITY_SCOPE]: [],
} as const satisfies Record<string, readonly string[]>;

export type OidcScope = keyof typeof SCOPE_CLAIMS;
export type OidcClaim = (typeof SCOPE_CLAIMS)[OidcScope][number];

/** Every claim of every scope, once (a function: a bundle that does not call it keeps nothing of it). */
export const everyClaim = (): OidcClaim[] => [...new Set(Object.values(SCOPE_CLAIMS).flat())];

/**
 * The route table: each screen is its own chunk, numbered for the 'Loading chunk N failed' message.
 * `access` says who may see it: visitors are sent to sign-in from user screens, users to their account
 * from visitor screens. The first screen (sign-in) is in the entry file, so it paints without another
 * request; every other screen loads with the other screens' text.
 */
import { RETENTION_PAGE_PATH } from '@edupass/protocol';
import { withMoreText } from '../i18n/i18n.ts';
import { securityRowOf } from '../screens/account/security-rows.ts';
import SignIn from '../screens/sign-in.tsx';
import { type LazyRoute, lazyRoute } from './lazy-route.tsx';

export type Access = 'visitor' | 'user' | 'any';

export const SCREENS = {
  signIn: lazyRoute(1, () => Promise.resolve({ default: SignIn })),
  signUp: lazyRoute(
    2,
    withMoreText(() => import('../screens/sign-up.tsx')),
  ),
  resetPassword: lazyRoute(
    3,
    withMoreText(() => import('../screens/reset-password.tsx')),
  ),
  agreementsGate: lazyRoute(
    4,
    withMoreText(() => import('../screens/agreements-gate.tsx')),
  ),
  profile: lazyRoute(
    5,
    withMoreText(() => import('../screens/account/profile.tsx')),
  ),
  security: lazyRoute(
    6,
    withMoreText(() => import('../screens/account/security.tsx')),
  ),
  connections: lazyRoute(
    7,
    withMoreText(() => import('../screens/account/connections.tsx')),
  ),
  privacy: lazyRoute(
    8,
    withMoreText(() => import('../screens/account/privacy.tsx')),
  ),
  oauthCallback: lazyRoute(
    9,
    withMoreText(() => import('../screens/oauth-callback.tsx')),
  ),
  notFound: lazyRoute(
    10,
    withMoreText(() => import('../screens/not-found.tsx')),
  ),
  returnToApp: lazyRoute(
    11,
    withMoreText(() => import('../screens/return-to-app.tsx')),
  ),
  legal: lazyRoute(
    12,
    withMoreText(() => import('../screens/legal.tsx')),
  ),
  teach: lazyRoute(
    13,
    withMoreText(() => import('../screens/teach/teach.tsx')),
  ),
  badgeSignIn: lazyRoute(
    14,
    withMoreText(() => import('../screens/badge-sign-in.tsx')),
  ),
  guardianConsent: lazyRoute(
    15,
    withMoreText(() => import('../screens/guardian-consent.tsx')),
  ),
  schoolSignIn: lazyRoute(
    16,
    withMoreText(() => import('../screens/school-sign-in.tsx')),
  ),
  guardianArea: lazyRoute(
    17,
    withMoreText(() => import('../screens/guardian/guardian-area.tsx')),
  ),
} as const satisfies Record<string, LazyRoute>;

export const PATHS: Record<string, { route: LazyRoute; access: Access }> = {
  '/': { route: SCREENS.signIn, access: 'visitor' },
  '/sign-in': { route: SCREENS.signIn, access: 'visitor' },
  '/sign-up': { route: SCREENS.signUp, access: 'visitor' },
  '/reset-password': { route: SCREENS.resetPassword, access: 'visitor' },
  '/account': { route: SCREENS.profile, access: 'user' },
  '/account/security': { route: SCREENS.security, access: 'user' },
  '/account/connections': { route: SCREENS.connections, access: 'user' },
  '/account/privacy': { route: SCREENS.privacy, access: 'user' },
  // A login card's QR code: signs in whoever is (or is not) signed in on this device.
  '/badge': { route: SCREENS.badgeSignIn, access: 'any' },
  // A consent link a child hands to a guardian: the guardian may still have to sign in (the page says so).
  '/consent': { route: SCREENS.guardianConsent, access: 'any' },
  // A parent's view of the children linked to them; a QR code of a guardian link code opens /guardian#<code>.
  '/guardian': { route: SCREENS.guardianArea, access: 'user' },
};

/** What to show for a location: the OAuth return lands on `/` with `?oauth=`. */
export const resolve = (path: string, query: URLSearchParams): { route: LazyRoute; access: Access } => {
  if (query.has('oauth')) return { route: SCREENS.oauthCallback, access: 'any' };
  // The chooser, and the return from a school's own sign-in (oauth/school.ts).
  if (path.replace(/\/+$/, '') === '/school' || (path === '/' && query.has('school'))) {
    return { route: SCREENS.schoolSignIn, access: 'any' };
  }
  if (/^\/legal\/[^/]+\/?$/.test(path)) return { route: SCREENS.legal, access: 'any' };
  // The privacy notice's retention statement, in the legal screen's chunk (screens/retention.tsx).
  if (path.replace(/\/+$/, '') === RETENTION_PAGE_PATH) return { route: SCREENS.legal, access: 'any' };
  // The teacher area (its classes, pupils and schools: screens/teach/teach-paths.ts).
  if (/^\/teach(\/|$)/.test(path)) return { route: SCREENS.teach, access: 'user' };
  // A row of "Sign-in & security" opened on a page of its own (screens/account/security-rows.ts).
  if (securityRowOf(path)) return { route: SCREENS.security, access: 'user' };
  return PATHS[path.replace(/\/+$/, '') || '/'] ?? { route: SCREENS.notFound, access: 'any' };
};

/**
 * The caller's own age band and guardian consent (`GET /edu/me/consent`): part of the guardian table
 * (guardian-routes.ts), written as a plain literal in a module of its own, as badge-route.ts is, so the
 * web client's first screen (its agreements gate asks whether a child signed in) carries no other
 * education or guardian route, answer or summary.
 */
export const ownConsentRoute = {
  method: 'GET',
  path: '/edu/me/consent',
  host: 'tiger',
  auth: 'token',
  status: 200,
} as const;

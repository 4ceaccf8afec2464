/**
 * Signing in with a login card's badge (`POST /edu/badge/sign-in`, docs/education.md): part of the
 * education table (edu-routes.ts), written as a plain literal in a module of its own so a client
 * that imports it (the account SDK's `loginByBadge`) carries no other education route or answer.
 */
export const signInByBadgeRoute = {
  method: 'POST',
  path: '/edu/badge/sign-in',
  host: 'tiger',
  auth: 'none',
  status: 200,
  body: {
    badge: { type: 'string', required: true, maxLength: 128 },
    pid: { type: 'string', required: false, maxLength: 64 },
    /**
     * The product sign-in (an OpenID Connect interaction) the card is shown for, when the browser
     * waits on one of a first-party product: completed with the sign-in where nothing more is asked
     * of the pupil, the answer's `redirect_to` then says where the browser goes on to.
     */
    interaction: { type: 'string', required: false, maxLength: 64 },
  },
} as const;

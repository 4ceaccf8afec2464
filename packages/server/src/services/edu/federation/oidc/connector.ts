/**
 * An OAuth2 / OpenID Connect education platform as a school connector (../connector.ts): the browser
 * comes back to the connector's own address with a code (or an error); signing out there is
 * RP-Initiated Logout with the sign-in's ID token; the platform posts its logout tokens to the
 * connector's logout address.
 */
import { fail } from '../../../../errors.ts';
import { returnedToConnector, type SchoolConnector } from '../connector.ts';
import type { OidcConnector } from '../connectors.ts';
import { platformLogout } from './back-channel-logout.ts';
import { finishOidcSignIn, platformSignOutUrl, startOidcSignIn } from './sign-in.ts';

export const oidcConnector: SchoolConnector<OidcConnector> = {
  kind: 'oidc',
  returnRoute: 'finishOidcSignIn',
  returnsByPost: false,
  returnedFor: returnedToConnector,
  start: (ctx, connector, state) => startOidcSignIn(ctx, connector, state),
  finish: async (ctx, connector, fields, { startedAt }) => {
    const { code, state, error } = fields as { code?: string; state: string; error?: string };
    if (code === undefined || code === '') {
      ctx.logger.warn({ connector: connector.code, error }, 'school platform returned no code');
      return fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
    }
    const { identity, upstream } = await finishOidcSignIn(ctx, connector, { state, code, startedAt });
    // The record names the sign-in by an HMAC of its code; the platform's logout tokens by `sid` and `sub`.
    return { identity, ticket: `oidc:${code}`, upstream };
  },
  signOutUrl: async (ctx, connector, there, back) =>
    there?.kind === 'oidc' ? platformSignOutUrl(ctx, connector, there.idToken, back) : undefined,
  singleLogout: {
    route: 'platformLogout',
    end: (ctx, connector, logoutToken) => platformLogout(ctx, connector, logoutToken),
  },
};

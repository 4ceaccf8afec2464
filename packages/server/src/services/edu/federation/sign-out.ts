/**
 * Signing out at the school's system too, for connectors with `sign_out_at_school`: after EduPass's
 * own sign-out, the browser goes to the school's system to end the session it keeps there, and comes
 * back to the sign-in screen (`signedOutPage`), by each kind's `signOutUrl` (its connector.ts). CAS:
 * `/logout`. OpenID Connect: RP-Initiated Logout 1.0, the sign-in's ID token as the hint. SAML: a
 * LogoutRequest signed with EduPass's SAML key, naming the sign-in's NameID and SessionIndex
 * (HTTP-Redirect); the identity provider's LogoutResponse comes back to the single logout service
 * (saml/logout.ts). What the last two name was kept with the sign-in, sealed and bound to its session.
 */
import type { LogoutNameId } from '../../../adapters/saml-sp.ts';
import type { Context } from '../../../context.ts';
import { ApiError } from '../../../errors.ts';
import { findSchoolSignInOfSession } from '../../../store/edu/federation/connectors.ts';
import { sessionKey } from '../../../store/sessions/sessions.ts';
import { seal, unseal } from '../../security/sealed-values.ts';
import { connectorFor } from './connector-kinds.ts';
import { enabledConnectorById } from './connectors.ts';
import { signedOutPage } from './upstream-url.ts';

/** What the school's system needs to end its session: kept with the sign-in, sealed. */
export type SignOutThere =
  | { kind: 'oidc'; idToken: string }
  | { kind: 'saml'; nameId: LogoutNameId; sessionIndex: string };

const sealName = (key: string) => `school-sign-out:${key}`;

/** Sealed for the session `key` only: copied to another session's row, it does not open. */
export const sealSignOut = (ctx: Context, key: string, there: SignOutThere): string =>
  seal(ctx.keys.sealing, JSON.stringify(there), sealName(key));

const openSignOut = (ctx: Context, key: string, sealed: string | null): SignOutThere | undefined => {
  const opened = sealed === null ? undefined : unseal(ctx.keys.sealing, sealed, sealName(key));
  return opened === undefined ? undefined : (JSON.parse(opened) as SignOutThere);
};

/**
 * Where the browser goes once the session `sessionId` is signed out here, to sign out at the school's
 * system too: '' when the session did not come from one that does (or the system has no sign-out, or
 * cannot be reached now: the sign-out here goes on regardless, logged).
 */
export const schoolSignOutUrl = async (ctx: Context, sessionId: string): Promise<string> => {
  const key = sessionKey(sessionId);
  const signIn = await findSchoolSignInOfSession(ctx.db, key);
  const connector = signIn && (await enabledConnectorById(ctx, Number(signIn.connector_id)));
  if (!signIn || !connector?.signOutAtSchool) return '';
  const back = signedOutPage(ctx);
  try {
    const there = openSignOut(ctx, key, signIn.upstream_sign_out);
    return (await connectorFor(connector.kind).signOutUrl(ctx, connector, there, back)) ?? '';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.warn(
      { connector: connector.code, err: error.message },
      'signing out at the school system is not possible now',
    );
    return '';
  }
};

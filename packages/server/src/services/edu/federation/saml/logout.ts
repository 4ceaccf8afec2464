/**
 * SAML single logout from an institution's identity provider: when a person signs out there, the IdP
 * sends the browser here with a signed LogoutRequest (HTTP-POST or HTTP-Redirect), and the EduPass sessions its sign-ins started
 * end (each sign-in keeps the IdP's SessionIndex and the NameID as HMACs: ../sign-in.ts). The
 * request is checked as assertions are (adapters/saml-logout.ts), taken once by its ID, and answered with
 * a LogoutResponse signed with EduPass's SAML key (sp-key.ts).
 */

import {
  logoutResponseUrl,
  redirectLogoutRequest,
  type SamlLogout,
  verifyLogoutRequest,
  verifyLogoutResponse,
  verifyRedirectLogoutRequest,
} from '../../../../adapters/saml-logout.ts';
import type { FederationIdp } from '../../../../adapters/saml-metadata.ts';
import { AssertionRefused, claimedIssuer, postedXml, type ServiceProvider } from '../../../../adapters/saml-sp.ts';
import type { Context } from '../../../../context.ts';
import { fail } from '../../../../errors.ts';
import { recordUpstreamToken } from '../../../../store/edu/federation/connectors.ts';
import { hmac, randomToken } from '../../../security/hashing.ts';
import { samlConnectorsOf } from '../connectors.ts';
import { endPlatformSignIns } from '../sign-in.ts';
import { federationIdp } from './federation-metadata.ts';
import { serviceProvider } from './sign-in.ts';
import { spSigningKey } from './sp-key.ts';

/** Kept in the replay cache past the request's own time, as the check accepts that much skew. */
const CLOCK_SKEW_MS = 60_000;

const refused = (ctx: Context, why: string): never => {
  ctx.logger.warn({ err: why }, 'SAML logout request refused');
  return fail('E_1', 'SAMLRequest: the logout request was not accepted.');
};

/** A LogoutRequest as the browser brought it: posted (base64), or in the query of a redirect. */
export type SentLogoutRequest =
  | { binding: 'post'; samlRequest: string; relayState: string | undefined }
  | { binding: 'redirect'; rawQuery: string };

/** The request's XML (read for whose it claims to be), its RelayState, and its check by the IdP's keys. */
const received = (sent: SentLogoutRequest, now: number) => {
  if (sent.binding === 'post') {
    return {
      xml: postedXml(sent.samlRequest),
      relayState: sent.relayState,
      check: (sp: ServiceProvider, idp: FederationIdp) => verifyLogoutRequest(sp, idp, sent.samlRequest, now),
    };
  }
  const request = redirectLogoutRequest(sent.rawQuery);
  return {
    xml: request.xml,
    relayState: request.relayState,
    check: async (sp: ServiceProvider, idp: FederationIdp) => verifyRedirectLogoutRequest(sp, idp, request, now),
  };
};

/**
 * Ends what a LogoutRequest names (every connector of the issuing institution); answers where the
 * browser goes next: the IdP's single logout service with the LogoutResponse, or undefined when it
 * has none. E_1 for a request that is not accepted (logged with the reason).
 */
export const samlLogout = async (ctx: Context, sent: SentLogoutRequest): Promise<string | undefined> => {
  let message: ReturnType<typeof received>;
  try {
    message = received(sent, ctx.now());
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    return refused(ctx, error.message);
  }
  const issuer = claimedIssuer(message.xml);
  const connectors = issuer === undefined ? [] : await samlConnectorsOf(ctx, issuer);
  const [first] = connectors;
  if (first === undefined) return refused(ctx, `no school signs in with the identity provider ${issuer ?? '(none)'}`);
  const sp = serviceProvider(ctx);
  const idp = await federationIdp(ctx, first.saml);
  let logout: SamlLogout;
  try {
    logout = await message.check(sp, idp);
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    return refused(ctx, error.message);
  }
  const requestKey = hmac(ctx.keys.codes, `saml-logout:${logout.id}`);
  if (!(await recordUpstreamToken(ctx.db, requestKey, logout.notOnOrAfter + CLOCK_SKEW_MS))) {
    return refused(ctx, 'the logout request was presented again');
  }
  let ended = 0;
  for (const connector of connectors) {
    const sessions = logout.sessionIndexes.length > 0 ? logout.sessionIndexes : [undefined];
    for (const session of sessions) {
      ended += await endPlatformSignIns(ctx, connector, { session, subject: logout.logoutName });
    }
  }
  ctx.logger.info({ idp: idp.entityId, ended }, 'SAML single logout');
  const key = await spSigningKey(ctx, sp.entityId);
  return logoutResponseUrl(sp, idp, key, logout, `_${randomToken(24)}`, message.relayState);
};

/**
 * The identity provider's LogoutResponse to EduPass's own LogoutRequest (signing out there, after the
 * session here ended): whether it signed the person out. Nothing here changes either way; an answer
 * that is refused, or not Success, is logged, and the sign-in screen says the school did not confirm.
 */
export const samlSignOutAnswered = async (ctx: Context, samlResponse: string): Promise<boolean> => {
  const issuer = claimedIssuer(postedXml(samlResponse));
  const [connector] = issuer === undefined ? [] : await samlConnectorsOf(ctx, issuer);
  if (connector === undefined) {
    ctx.logger.warn({ idp: issuer }, 'SAML logout response from an identity provider no school signs in with');
    return false;
  }
  const idp = await federationIdp(ctx, connector.saml);
  try {
    const answered = await verifyLogoutResponse(serviceProvider(ctx), idp, samlResponse);
    ctx.logger.info({ idp: idp.entityId, answered }, 'signed out at the identity provider');
    return true;
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    ctx.logger.warn({ idp: idp.entityId, err: error.message }, 'SAML logout response refused');
    return false;
  }
};

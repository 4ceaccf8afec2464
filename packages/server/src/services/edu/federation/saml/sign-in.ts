/**
 * Signing in through a SAML federation: the AuthnRequest (recorded, so only a response to a request
 * this server sent is taken, and only once), and the response checked (adapters/saml-response.ts), its
 * request taken and its assertion recorded — each a single statement, so a replayed or raced copy
 * loses on SQLite and PostgreSQL alike — then read into the identity the mapping sees.
 */
import { routes } from '@edupass/protocol';
import { logoutRequestUrl } from '../../../../adapters/saml-logout.ts';
import { verifyResponse } from '../../../../adapters/saml-response.ts';
import {
  AssertionRefused,
  authnRequestUrl,
  type ServiceProvider,
  serviceProviderMetadata,
} from '../../../../adapters/saml-sp.ts';
import type { Context } from '../../../../context.ts';
import { fail } from '../../../../errors.ts';
import { recordUpstreamToken } from '../../../../store/edu/federation/connectors.ts';
import { insertSamlRequest, takeSamlRequest } from '../../../../store/edu/federation/saml.ts';
import { STATE_TTL_SECONDS } from '../../../oauth/state.ts';
import { hmac, randomToken } from '../../../security/hashing.ts';
import type { SamlConnector } from '../connectors.ts';
import type { UpstreamIdentity } from '../identity-mapping.ts';
import type { SignOutThere } from '../sign-out.ts';
import { federationIdp } from './federation-metadata.ts';
import { spSigningKey } from './sp-key.ts';

/** The accepted clock difference with identity providers, also added to the replay cache's keep time. */
const SKEW_MS = 60_000;

/** EduPass in the federation: one entity, one assertion consumer service for every school. */
export const serviceProvider = (ctx: Context): ServiceProvider => ({
  entityId: new URL(routes.samlServiceProvider.path, ctx.config.publicUrl).toString(),
  acsUrl: new URL(routes.finishSamlSignIn.path, ctx.config.publicUrl).toString(),
  sloUrl: new URL(routes.samlSingleLogout.path, ctx.config.publicUrl).toString(),
});

/** The SP metadata, with the signing key (made on first use). */
export const serviceProviderMetadataOf = async (ctx: Context) => {
  const sp = serviceProvider(ctx);
  return serviceProviderMetadata(sp, await spSigningKey(ctx, sp.entityId));
};

/** The identity provider's address for a new AuthnRequest carrying `relayState`. */
export const startSamlSignIn = async (ctx: Context, connector: SamlConnector, relayState: string) => {
  const idp = await federationIdp(ctx, connector.saml);
  // An xs:ID must not start with a digit.
  const requestId = `_${randomToken(24)}`;
  await insertSamlRequest(ctx.db, {
    request_id: requestId,
    connector_id: connector.id,
    expires_at: ctx.now() + STATE_TTL_SECONDS * 1000,
  });
  return authnRequestUrl(serviceProvider(ctx), idp, {
    id: requestId,
    relayState,
    forceAuthn: connector.forceSignIn,
  });
};

const refused = (): never => fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');

/**
 * The opaque id the default SAML mapping names (`opaque-id`): the pairwise id, else the targeted id,
 * else a persistent NameID — all pairwise by definition, never a student number.
 */
const withOpaqueId = (attributes: Record<string, string[]>, nameId: string) => {
  const opaque = attributes['pairwise-id']?.[0] ?? attributes.eduPersonTargetedID?.[0] ?? (nameId || undefined);
  return opaque === undefined ? attributes : { ...attributes, 'opaque-id': [opaque] };
};

export interface SamlSignedIn {
  identity: UpstreamIdentity;
  /** Names this sign-in for the school sign-in record (an HMAC of the assertion). */
  assertionKey: string;
  /**
   * The IdP's session and the person as its LogoutRequests name them (single logout), and as
   * EduPass's own LogoutRequest repeats them (signing out there).
   */
  upstream: { session: string | undefined; subject: string | undefined; signOut: SignOutThere | undefined };
}

/**
 * A posted response for `connector` to the sign-in this browser started at `startedAt` (unix ms): the
 * identity it proves, or AC3_27 (logged with the reason).
 */
export const finishSamlSignIn = async (
  ctx: Context,
  connector: SamlConnector,
  samlResponse: string,
  startedAt: number,
): Promise<SamlSignedIn> => {
  const idp = await federationIdp(ctx, connector.saml);
  let assertion: Awaited<ReturnType<typeof verifyResponse>>;
  try {
    assertion = await verifyResponse(serviceProvider(ctx), idp, samlResponse);
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    ctx.logger.warn({ connector: connector.code, err: error.message }, 'SAML response refused');
    return refused();
  }
  // An identity provider that ignored ForceAuthn answers from the session someone else may have left open.
  if (connector.forceSignIn && !(assertion.authnInstant + SKEW_MS >= startedAt)) {
    ctx.logger.warn(
      { connector: connector.code },
      'SAML sign-in was not a fresh sign-in (AuthnInstant before the start)',
    );
    return refused();
  }
  const now = ctx.now();
  if (!(await takeSamlRequest(ctx.db, assertion.inResponseTo, connector.id, now))) {
    ctx.logger.warn(
      { connector: connector.code },
      'SAML response answers no waiting request (replayed or unsolicited)',
    );
    return refused();
  }
  const assertionKey = hmac(ctx.keys.codes, `saml-assertion:${assertion.id}`);
  if (!(await recordUpstreamToken(ctx.db, assertionKey, Math.max(assertion.notOnOrAfter, now) + SKEW_MS))) {
    ctx.logger.warn({ connector: connector.code }, 'SAML assertion presented again');
    return refused();
  }
  return {
    identity: { user: assertion.nameId, attributes: withOpaqueId(assertion.attributes, assertion.nameId) },
    assertionKey,
    upstream: {
      session: assertion.sessionIndex || undefined,
      subject: assertion.logoutName || undefined,
      signOut: assertion.logoutNameId && {
        kind: 'saml',
        nameId: assertion.logoutNameId,
        sessionIndex: assertion.sessionIndex,
      },
    },
  };
};

/**
 * Where the browser takes EduPass's own LogoutRequest to the institution's identity provider, naming
 * the person and session of a sign-in (signing out there too); undefined when the IdP has no single
 * logout service.
 */
export const samlSignOutUrl = async (
  ctx: Context,
  connector: SamlConnector,
  there: Extract<SignOutThere, { kind: 'saml' }>,
): Promise<string | undefined> => {
  const idp = await federationIdp(ctx, connector.saml);
  const sp = serviceProvider(ctx);
  return logoutRequestUrl(sp, idp, await spSigningKey(ctx, sp.entityId), {
    // An xs:ID must not start with a digit.
    id: `_${randomToken(24)}`,
    nameId: there.nameId,
    sessionIndex: there.sessionIndex,
  });
};

/**
 * The OpenID Connect provider (oidc-provider) configured for EduPass: its storage is the database
 * (adapter.ts), its accounts are EduPass users (accounts.ts), its clients the registered applications,
 * its signing keys those of services/sessions/signing-keys.ts, and its interaction is the web client's sign-in
 * (the screens complete it through routes/identity.ts). Code flow; PKCE,
 * ID-token algorithms and resource servers as relying parties' libraries expect (relying-parties.ts).
 */
import { DAY_SECONDS, HOUR_SECONDS, OIDC_PREFIX } from '@edupass/protocol';
import type { JWK } from 'jose';
import type { Configuration, GrantModel, OidcContext, Provider } from 'oidc-provider';
import type { Context } from '../context.ts';
import { hasAgreementsToSign } from '../services/account/agreements.ts';
import { secretMatches } from '../services/identity/applications.ts';
import { queueBackchannelLogouts } from '../services/identity/backchannel-logout.ts';
import { limitedSecretCheck } from '../services/security/client-secrets.ts';
import { hmac } from '../services/security/hashing.ts';
import { wakeWorkers } from '../services/webhooks/events.ts';
import { type AccountRequest, findAccount, SCOPE_CLAIMS } from './accounts.ts';
import { databaseAdapter } from './adapter.ts';
import { applyConsentToGrant } from './consent-scopes.ts';
import { cookieKeys } from './cookie-keys.ts';
import { interactionUrl } from './interaction-url.ts';
import { nodeSigningKeys } from './jwt-signers.ts';
import { loadOidcProvider } from './load.ts';
import { type PageRequest, pageLocale } from './page-locale.ts';
import { errorPage, logoutPage, signedOutPage } from './pages.ts';
import { relyingPartyConfiguration } from './relying-parties.ts';
import { endLinkedSession, linkedSessionLive, linkSession } from './session-links.ts';

/** Lifetimes, in seconds, of what the provider issues and keeps. */
export const OIDC_TTL = {
  AccessToken: 15 * 60,
  AuthorizationCode: 60,
  IdToken: HOUR_SECONDS,
  Interaction: HOUR_SECONDS,
  Session: 14 * DAY_SECONDS,
  Grant: 14 * DAY_SECONDS,
} as const;

/** What the web client puts in the interaction result besides the standard login fields. */
export interface EduPassLogin {
  accountId: string;
  /** The stored key of the EduPass session the sign-in stands on (session-links.ts). */
  edupassSessionKey: string;
}

const submittedLogin = (ctx: OidcContext): EduPassLogin | undefined => {
  const login = ctx.oidc.result?.login as Partial<EduPassLogin> | undefined;
  return typeof login?.edupassSessionKey === 'string' && typeof login.accountId === 'string'
    ? { accountId: login.accountId, edupassSessionKey: login.edupassSessionKey }
    : undefined;
};

/** First-party applications are granted what they ask without a consent screen. */
const grantFirstParty = async (edupass: Context, ctx: OidcContext): Promise<GrantModel | undefined> => {
  const { oidc } = ctx;
  const { client, session } = oidc;
  if (client === undefined || session === undefined) return undefined;
  const grantId =
    (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
  if (grantId) {
    // Consent given or withdrawn since the grant was made changes what it gives (consent-scopes.ts).
    const found = await oidc.provider.Grant.find(grantId);
    if (found !== undefined && (await applyConsentToGrant(edupass, found, oidc.requestParamScopes))) await found.save();
    return found;
  }
  if (client.first_party !== true || !session.accountId) return undefined;
  const grant = new oidc.provider.Grant({ accountId: session.accountId, clientId: client.clientId });
  grant.addOIDCScope([...oidc.requestParamScopes].join(' '));
  grant.addOIDCClaims([...oidc.requestParamClaims]);
  await applyConsentToGrant(edupass, grant, oidc.requestParamScopes);
  await grant.save();
  return grant;
};

export const createProvider = async (
  ctx: Context,
  jwks: { keys: JWK[] },
  accessTokenKid: string,
): Promise<Provider> => {
  const { Provider: OidcProvider, interactionPolicy, errors, ExternalSigningKey } = await loadOidcProvider();
  // ID-token algorithms and claims, PKCE, resource servers (relying-parties.ts).
  const { extraClientMetadataProperties, resourceIndicators, ...forRelyingParties } = relyingPartyConfiguration(
    ctx,
    accessTokenKid,
    errors.InvalidTarget,
  );
  const { Check } = interactionPolicy;
  const policy = interactionPolicy.base();
  // After `no_session`: a provider session whose EduPass session has ended asks for a sign-in again,
  // and one whose account has agreements in effect left to sign goes through the web client (its gate)
  // rather than straight back to the application.
  policy.get('login')?.checks.add(
    new Check('edupass_session', 'The EduPass session has ended', async (kctx) => {
      const session = kctx.oidc.session;
      if (session?.accountId === undefined) return Check.NO_NEED_TO_PROMPT;
      const submitted = submittedLogin(kctx);
      if (submitted !== undefined) {
        await linkSession(
          ctx,
          session.uid,
          { sessionKey: submitted.edupassSessionKey, userId: Number(submitted.accountId) },
          OIDC_TTL.Session,
        );
        return Check.NO_NEED_TO_PROMPT;
      }
      return (await linkedSessionLive(ctx, session.uid, session.accountId)) &&
        !(await hasAgreementsToSign(ctx, Number(session.accountId)))
        ? Check.NO_NEED_TO_PROMPT
        : Check.REQUEST_PROMPT;
    }),
    1,
  );

  /** The site's name and the application's, for the pages the provider renders (pages.ts). */
  const pageNames = (kctx: OidcContext) => {
    const name = kctx.oidc.client?.clientName;
    return { site: ctx.config.site.name, app: typeof name === 'string' ? name : undefined };
  };

  const configuration: Configuration = {
    adapter: databaseAdapter(ctx, () => new errors.InvalidGrant('grant already consumed')),
    jwks: nodeSigningKeys(ExternalSigningKey, jwks),
    // The client asking (the token's, else the request's) decides what leaves (accounts.ts).
    findAccount: (kctx: AccountRequest['kctx'], sub: string, token?: AccountRequest['token']) =>
      findAccount(ctx, sub, { kctx, token }),
    claims: SCOPE_CLAIMS,
    scopes: ['openid', 'offline_access', ...Object.keys(SCOPE_CLAIMS).filter((scope) => scope !== 'openid')],
    ...forRelyingParties,
    extraClientMetadata: { properties: ['first_party', ...extraClientMetadataProperties] },
    // The interaction cookie goes to the whole site (path /), so the web client's calls about the
    // interaction (routes/identity.ts) carry it: they are bound to the browser that started it.
    cookies: { keys: cookieKeys([hmac(ctx.keys.codes, 'oidc-provider cookies')]), short: { path: '/' } },
    features: {
      devInteractions: { enabled: false },
      // The keys sign through node:crypto (jwt-signers.ts); the version is the one this release implements.
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      revocation: { enabled: true },
      resourceIndicators,
      // Confidential applications ask whether a token is still active (it is not once its session ended).
      introspection: { enabled: true },
      // Applications may register a back-channel logout URI; logout tokens are posted by
      // services/identity/backchannel-logout.ts whenever the session they stood on ends.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // In the visitor's language (page-locale.ts), naming the site and the application that asked.
        logoutSource: (kctx: OidcContext & PageRequest & { body: string }, form: string) => {
          kctx.body = logoutPage(pageLocale(kctx), pageNames(kctx), form);
        },
        postLogoutSuccessSource: (kctx: OidcContext & PageRequest & { body: string }) => {
          kctx.body = signedOutPage(pageLocale(kctx), pageNames(kctx));
        },
      },
    },
    interactions: {
      url: (_kctx: unknown, interaction: { uid: string }) => interactionUrl(ctx.config, interaction.uid),
      policy,
    },
    // Applications registered with the refresh_token grant get refresh tokens without offline_access
    // (their users stay signed in as on EduPass itself, until the session ends).
    // Every refresh answers a new refresh token and spends the old one: a refresh token used twice is
    // a replay, and its grant is revoked (adapter.ts, also for replays at the same moment).
    rotateRefreshToken: true,
    issueRefreshToken: async (_kctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    loadExistingGrant: (kctx: OidcContext) => grantFirstParty(ctx, kctx),
    // Every authorization names its redirect_uri, compared exactly. (Letting an application with one
    // registered URI omit it also made oidc-provider's error handler fail with a 500 on a resume URL
    // carrying a client_id, `/oidc/auth/<uid>?client_id=…`.)
    allowOmittingSingleRegisteredRedirectUri: false,
    renderError: (
      kctx: PageRequest & { type: string; body: string },
      out: { error: string; error_description?: string },
    ) => {
      kctx.type = 'html';
      kctx.body = errorPage(pageLocale(kctx), ctx.config.site.name, out.error, out.error_description);
    },
    ttl: { ...OIDC_TTL, RefreshToken: ctx.config.refreshTokenTtlSeconds },
  };
  const provider = new OidcProvider(`${ctx.config.publicUrl}${OIDC_PREFIX}`, configuration);
  // Host, scheme and client address are read from headers that mount.ts (`asPublicRequest`) sets
  // from PUBLIC_URL and Fastify's trusted-proxy view for every request, whatever the client sent.
  provider.proxy = true;
  // ID tokens always carry `sid`, the provider session an application's sign-in stands on.
  provider.Client.prototype.includeSid = () => true;
  // The provider's own back-channel logouts (signing out through an application) are posted the way
  // EduPass's are: written to the outbox and sent by the worker, retried, through the same guards.
  provider.Client.prototype.backchannelLogout = async function backchannelLogout(
    this: { clientId: string },
    sub: string,
    sid: string,
  ) {
    await queueBackchannelLogouts(ctx, [{ clientId: this.clientId, accountId: sub, sid }]);
    // Queued outside a transaction, so no commit wakes the worker (inTransaction): wake it here.
    wakeWorkers(ctx.store);
  };
  // Secrets are kept as keyed hashes (services/identity/applications.ts).
  // Wrong secrets are limited per client and address (the address mount.ts gave the request).
  provider.Client.prototype.compareClientSecret = function compare(
    this: { clientId: string; clientSecret: string },
    actual: string,
  ) {
    const ip = OidcProvider.ctx?.ip ?? '';
    return limitedSecretCheck(ctx, this.clientId, ip, () => secretMatches(ctx, this.clientSecret, actual));
  };
  // Signing out of an application everywhere (RP-initiated logout, "sign out") ends the EduPass session too.
  provider.use(async (kctx, next) => {
    await next();
    const { oidc } = kctx;
    if (oidc?.route === 'end_session_confirm' && oidc.params?.logout && kctx.status === 303 && oidc.session) {
      await endLinkedSession(ctx, oidc.session.uid);
    }
  });
  return provider;
};

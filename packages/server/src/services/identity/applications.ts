/**
 * Registered applications: the platform's products (first-party, no consent screen) and others
 * (third-party, consent listing the claims). Confidential ones authenticate with a secret that is
 * shown once and kept only as a keyed hash; public ones (single-page and mobile apps) use PKCE alone.
 */
import { randomBytes } from 'node:crypto';
import type { Application, ApplicationWithSecret, AuditAction } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, invalidRequest } from '../../errors.ts';
import {
  type ApplicationRow,
  deleteApplication,
  findApplication,
  insertApplication,
  listApplicationRows,
  setApplicationSecretHash,
  updateApplicationRow,
} from '../../store/identity/applications.ts';
import { audit } from '../admin/operations.ts';
import { hmac, randomToken, safeEqual } from '../security/hashing.ts';
import { ID_TOKEN_ALGS } from '../sessions/signing-keys.ts';
import { checkWebhookUrl } from '../webhooks/target.ts';

export interface NewApplication {
  name: string;
  logo_url?: string | undefined;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[] | undefined;
  first_party: boolean;
  confidential: boolean;
  require_pkce?: boolean | undefined;
  id_token_signed_response_alg?: string | undefined;
  backchannel_logout_uri?: string | undefined;
  discloses_to_others?: boolean | undefined;
}

/** What `updateApplication` may change; what is left out stays. */
export interface ApplicationChange {
  name?: string | undefined;
  logo_url?: string | undefined;
  redirect_uris?: string[] | undefined;
  post_logout_redirect_uris?: string[] | undefined;
  require_pkce?: boolean | undefined;
  id_token_signed_response_alg?: string | undefined;
  backchannel_logout_uri?: string | undefined;
  discloses_to_others?: boolean | undefined;
}

type KeyContext = Pick<Context, 'keys'>;

/** The operator making a change in the console (audited); undefined from the command line. */
type Operator = number | undefined;

const audited = (ctx: Context, operator: Operator, action: AuditAction, target: string, detail?: string) =>
  operator === undefined ? undefined : audit(ctx, operator, action, target, detail);

export const applicationSecretHash = (ctx: KeyContext, secret: string) =>
  hmac(ctx.keys.codes, `client secret:${secret}`);

export const secretMatches = (ctx: KeyContext, stored: string, presented: string) =>
  safeEqual(stored, applicationSecretHash(ctx, presented));

/** An absolute http(s) URL without a fragment (OAuth 2.0 §3.1.2), or the request is refused. */
const absoluteUrl = (value: string, what: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest(`${what} must be an absolute URL.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash !== '' || value.includes('#')) {
    throw invalidRequest(`${what} must be an http(s) URL without a fragment.`);
  }
  return value;
};

/** Hosts a developer's own machine answers on, where a plain-http logo is fine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A logo shown on the sign-in and consent screens: https only (a page served over https does not load
 * an http picture, and would show it broken), but for a loopback host in development.
 */
const logoUrl = (value: string): string => {
  const logo = absoluteUrl(value, 'The logo URL');
  const url = new URL(logo);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw invalidRequest(`The logo URL must be https: (https://${url.host}${url.pathname}).`);
  }
  return logo;
};

const idTokenAlg = (value: string | undefined): string => {
  const alg = value ?? ID_TOKEN_ALGS[0];
  if (!(ID_TOKEN_ALGS as readonly string[]).includes(alg)) {
    throw invalidRequest(`The ID-token algorithm must be one of ${ID_TOKEN_ALGS.join(', ')}.`);
  }
  return alg;
};

/**
 * Where logout tokens go ('' or absent: nowhere): an absolute http(s) URL that passes the checks
 * webhook targets pass (no loopback or private address unless WEBHOOK_ALLOW_PRIVATE), since the
 * server posts to it by itself.
 */
const backchannelUri = (ctx: Pick<Context, 'config'>, value: string | undefined): string | null => {
  if (value === undefined || value === '') return null;
  absoluteUrl(value, 'The back-channel logout URI');
  checkWebhookUrl(value, ctx.config.webhooks.allowPrivate);
  return value;
};

const nameOf = (value: string) => {
  const name = value.trim();
  if (name === '') throw invalidRequest('The name must not be empty.');
  return name;
};

const redirectsOf = (uris: string[]) => {
  if (uris.length === 0) throw invalidRequest('At least one redirect URI is needed.');
  return uris.map((uri) => absoluteUrl(uri, 'A redirect URI'));
};

export const applicationView = (row: ApplicationRow): Application => ({
  client_id: row.client_id,
  name: row.name,
  logo_url: row.logo_url,
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
  post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
  first_party: row.first_party === 1,
  confidential: row.secret_hash !== null,
  require_pkce: row.secret_hash === null || row.require_pkce === 1,
  id_token_signed_response_alg: row.id_token_alg,
  backchannel_logout_uri: row.backchannel_logout_uri ?? '',
  discloses_to_others: row.discloses_to_others === 1,
  created_at: row.created_at,
});

export const addApplication = async (
  ctx: Context,
  input: NewApplication,
  operator?: Operator,
): Promise<ApplicationWithSecret> => {
  const name = nameOf(input.name);
  const redirects = redirectsOf(input.redirect_uris);
  const postLogout = (input.post_logout_redirect_uris ?? []).map((uri) => absoluteUrl(uri, 'A post-logout URI'));
  const logo = input.logo_url ? logoUrl(input.logo_url) : '';
  const secret = input.confidential ? randomToken(32) : undefined;
  const now = ctx.now();
  const row: ApplicationRow = {
    // Hex: a client id never starts with '-', which command lines would read as an option.
    client_id: randomBytes(12).toString('hex'),
    name,
    logo_url: logo,
    redirect_uris: JSON.stringify(redirects),
    post_logout_redirect_uris: JSON.stringify(postLogout),
    first_party: input.first_party ? 1 : 0,
    secret_hash: secret === undefined ? null : applicationSecretHash(ctx, secret),
    require_pkce: input.require_pkce === true ? 1 : 0,
    id_token_alg: idTokenAlg(input.id_token_signed_response_alg),
    backchannel_logout_uri: backchannelUri(ctx, input.backchannel_logout_uri),
    discloses_to_others: input.discloses_to_others === true ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await insertApplication(ctx.db, row);
  await audited(ctx, operator, 'application.add', `application:${row.client_id}`, name);
  return { application: applicationView(row), ...(secret === undefined ? {} : { client_secret: secret }) };
};

export const listApplications = async (ctx: Context): Promise<Application[]> =>
  (await listApplicationRows(ctx.db)).map(applicationView);

/**
 * Changes an application's name, logo, redirect URIs, PKCE requirement, ID-token algorithm or
 * back-channel logout URI. The
 * provider reads applications on each request, so the change applies to the next authorization.
 */
export const updateApplication = async (
  ctx: Context,
  clientId: string,
  change: ApplicationChange,
  operator?: Operator,
): Promise<Application> => {
  const changed = {
    ...(change.name === undefined ? {} : { name: nameOf(change.name) }),
    ...(change.logo_url === undefined ? {} : { logo_url: change.logo_url ? logoUrl(change.logo_url) : '' }),
    ...(change.redirect_uris === undefined ? {} : { redirect_uris: JSON.stringify(redirectsOf(change.redirect_uris)) }),
    ...(change.post_logout_redirect_uris === undefined
      ? {}
      : {
          post_logout_redirect_uris: JSON.stringify(
            change.post_logout_redirect_uris.map((uri) => absoluteUrl(uri, 'A post-logout URI')),
          ),
        }),
    ...(change.require_pkce === undefined ? {} : { require_pkce: change.require_pkce ? 1 : 0 }),
    ...(change.id_token_signed_response_alg === undefined
      ? {}
      : { id_token_alg: idTokenAlg(change.id_token_signed_response_alg) }),
    ...(change.backchannel_logout_uri === undefined
      ? {}
      : { backchannel_logout_uri: backchannelUri(ctx, change.backchannel_logout_uri) }),
    ...(change.discloses_to_others === undefined ? {} : { discloses_to_others: change.discloses_to_others ? 1 : 0 }),
  };
  if (!(await updateApplicationRow(ctx.db, clientId, changed, ctx.now()))) {
    throw new ApiError('E_2', 'No application has this client id.');
  }
  await audited(ctx, operator, 'application.update', `application:${clientId}`, Object.keys(changed).join(','));
  const row = await findApplication(ctx.db, clientId);
  if (row === undefined) throw new ApiError('E_2', 'No application has this client id.');
  return applicationView(row);
};

/** A new secret for a confidential application; the old one stops working at once. */
export const rotateApplicationSecret = async (
  ctx: Context,
  clientId: string,
  operator?: Operator,
): Promise<{ client_secret: string }> => {
  const secret = randomToken(32);
  if (!(await setApplicationSecretHash(ctx.db, clientId, applicationSecretHash(ctx, secret), ctx.now()))) {
    throw new ApiError('E_2', 'No confidential application has this client id.');
  }
  await audited(ctx, operator, 'application.secret.rotate', `application:${clientId}`);
  return { client_secret: secret };
};

export const removeApplication = async (ctx: Context, clientId: string, operator?: Operator): Promise<void> => {
  if (!(await deleteApplication(ctx.db, clientId))) throw new ApiError('E_2', 'No application has this client id.');
  await audited(ctx, operator, 'application.remove', `application:${clientId}`);
};

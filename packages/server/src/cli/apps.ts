/**
 * `edupass apps add|list|update|rotate-secret|remove`: the applications that sign in through EduPass, as the
 * console manages them. A confidential application's secret is printed once, when made or rotated.
 */
import type { Application } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import {
  addApplication,
  listApplications,
  removeApplication,
  rotateApplicationSecret,
  updateApplication,
} from '../services/identity/applications.ts';

export const APPS_USAGE = `  apps add <name> --redirect <uri> [--redirect <uri>…] [--post-logout <uri>…] [--logo <url>]
           [--third-party] [--public] [--require-pkce] [--id-token-alg RS256|ES256] [--backchannel-logout <uri>]
                                           register an application (prints its client id, and its secret once)
  apps list                                the registered applications
  apps update <client_id> [--name <name>] [--redirect <uri>…] [--post-logout <uri>…] [--logo <url>]
           [--require-pkce | --no-require-pkce] [--id-token-alg RS256|ES256] [--backchannel-logout <uri|''>]
                                           change an application (the options given replace what it had)
  apps rotate-secret <client_id>           a new secret for a confidential application (printed once)
  apps remove <client_id>                  remove an application and what it was granted`;

/** The options `apps` adds to the command line. */
export const APPS_OPTIONS = {
  redirect: { type: 'string', multiple: true },
  'post-logout': { type: 'string', multiple: true },
  logo: { type: 'string' },
  'third-party': { type: 'boolean' },
  public: { type: 'boolean' },
  name: { type: 'string' },
  'require-pkce': { type: 'boolean' },
  'no-require-pkce': { type: 'boolean' },
  'id-token-alg': { type: 'string' },
  'backchannel-logout': { type: 'string' },
} as const;

export interface AppsValues {
  redirect?: string[] | undefined;
  'post-logout'?: string[] | undefined;
  logo?: string | undefined;
  'third-party'?: boolean | undefined;
  public?: boolean | undefined;
  name?: string | undefined;
  'require-pkce'?: boolean | undefined;
  'no-require-pkce'?: boolean | undefined;
  'id-token-alg'?: string | undefined;
  'backchannel-logout'?: string | undefined;
}

/** `--require-pkce` on, `--no-require-pkce` off, neither: unchanged (undefined). */
const requirePkce = (values: AppsValues) =>
  values['require-pkce'] === true ? true : values['no-require-pkce'] === true ? false : undefined;

const describe = (app: Application) =>
  [
    `${app.client_id}  ${app.name}`,
    `  ${app.first_party ? 'first-party' : 'third-party'}, ${app.confidential ? 'confidential (secret)' : 'public (PKCE)'}${app.confidential && app.require_pkce ? ', PKCE required' : ''}, ID tokens ${app.id_token_signed_response_alg}`,
    `  redirect: ${app.redirect_uris.join(' ')}`,
    ...(app.post_logout_redirect_uris.length > 0
      ? [`  after sign-out: ${app.post_logout_redirect_uris.join(' ')}`]
      : []),
    ...(app.backchannel_logout_uri ? [`  back-channel logout: ${app.backchannel_logout_uri}`] : []),
  ].join('\n');

/** The lines to print for `apps <sub> [arg]`, or undefined for a sub-command it does not know. */
export const runApps = async (
  ctx: Context,
  sub: string | undefined,
  arg: string | undefined,
  values: AppsValues,
): Promise<string | undefined> => {
  try {
    if (sub === 'add' && arg) {
      const made = await addApplication(ctx, {
        name: arg,
        logo_url: values.logo,
        redirect_uris: values.redirect ?? [],
        post_logout_redirect_uris: values['post-logout'] ?? [],
        first_party: values['third-party'] !== true,
        confidential: values.public !== true,
        require_pkce: requirePkce(values),
        id_token_signed_response_alg: values['id-token-alg'],
        backchannel_logout_uri: values['backchannel-logout'],
      });
      const secret = made.client_secret === undefined ? [] : [`client secret (shown once): ${made.client_secret}`];
      return [describe(made.application), ...secret].join('\n');
    }
    if (sub === 'list') {
      const apps = await listApplications(ctx);
      return apps.length === 0 ? 'No applications are registered.' : apps.map(describe).join('\n');
    }
    if (sub === 'update' && arg) {
      const updated = await updateApplication(ctx, arg, {
        name: values.name,
        logo_url: values.logo,
        redirect_uris: values.redirect,
        post_logout_redirect_uris: values['post-logout'],
        require_pkce: requirePkce(values),
        id_token_signed_response_alg: values['id-token-alg'],
        backchannel_logout_uri: values['backchannel-logout'],
      });
      return describe(updated);
    }
    if (sub === 'rotate-secret' && arg) {
      return `client secret of ${arg} (shown once): ${(await rotateApplicationSecret(ctx, arg)).client_secret}`;
    }
    if (sub === 'remove' && arg) {
      await removeApplication(ctx, arg);
      return `Removed ${arg}.`;
    }
    return undefined;
  } catch (error) {
    // The services' refusals (bad URI, unknown client id) are messages for the operator, not crashes.
    if (error instanceof ApiError) throw new Error(error.message);
    throw error;
  }
};

/** A registered application as the provider's client metadata. */

import type { ApplicationRow } from '../services/identity/provider-data.ts';

/**
 * Confidential applications whose redirect URIs are all https (not localhost) may also take the ID
 * token alone by form_post (response_type=id_token, what express-openid-connect asks by default);
 * OpenID Connect allows that flow to web clients only over https. The rest use the code flow only.
 */
const takesIdTokenAlone = (row: ApplicationRow, redirects: string[]) =>
  row.secret_hash !== null &&
  redirects.every((uri) => {
    const url = new URL(uri);
    return url.protocol === 'https:' && url.hostname !== 'localhost';
  });

export const clientMetadata = (row: ApplicationRow) => {
  const redirects = JSON.parse(row.redirect_uris) as string[];
  const idTokenAlone = takesIdTokenAlone(row, redirects);
  return {
    client_id: row.client_id,
    client_name: row.name,
    ...(row.logo_url ? { logo_uri: row.logo_url } : {}),
    redirect_uris: redirects,
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    grant_types: ['authorization_code', 'refresh_token', ...(idTokenAlone ? ['implicit'] : [])],
    response_types: idTokenAlone ? ['code', 'id_token'] : ['code'],
    id_token_signed_response_alg: row.id_token_alg,
    first_party: row.first_party === 1,
    require_pkce: row.require_pkce === 1,
    // Logout tokens always carry `sid` (and `sub`): services/identity/backchannel-logout.ts.
    ...(row.backchannel_logout_uri
      ? { backchannel_logout_uri: row.backchannel_logout_uri, backchannel_logout_session_required: true }
      : {}),
    // Confidential: the stored value is the secret's keyed hash, compared by hashing what is presented
    // (provider.ts replaces the client's secret comparison accordingly).
    ...(row.secret_hash === null
      ? { token_endpoint_auth_method: 'none' }
      : { token_endpoint_auth_method: 'client_secret_basic', client_secret: row.secret_hash }),
  };
};

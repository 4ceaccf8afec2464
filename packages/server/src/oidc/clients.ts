/** A registered application as the provider's client metadata. */

import type { ApplicationRow } from '../services/identity/provider-data.ts';
import { SIGNING_ALG } from '../services/sessions/signing-keys.ts';

export { SIGNING_ALG };

export const clientMetadata = (row: ApplicationRow) => ({
  client_id: row.client_id,
  client_name: row.name,
  ...(row.logo_url ? { logo_uri: row.logo_url } : {}),
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
  post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  id_token_signed_response_alg: SIGNING_ALG,
  first_party: row.first_party === 1,
  // Confidential: the stored value is the secret's keyed hash, compared by hashing what is presented
  // (provider.ts replaces the client's secret comparison accordingly).
  ...(row.secret_hash === null
    ? { token_endpoint_auth_method: 'none' }
    : { token_endpoint_auth_method: 'client_secret_basic', client_secret: row.secret_hash }),
});

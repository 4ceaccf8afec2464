/**
 * The applications registered with the OpenID Connect provider (operators only; spread into
 * `adminRoutes`). Apart from identity-routes.ts, whose routes the web client's bundle carries.
 */
import { list, NO_CONTENT } from './answer-schema.ts';
import { applicationAnswer, applicationSecretAnswer, applicationWithSecretAnswer } from './identity-answers.ts';
import { operatorRoute as operator } from './operator-route.ts';
import { opt, s } from './route-fields.ts';

const urls = { type: 'string[]', required: true, maxLength: 20 } as const;
const clientIdParam = { client_id: s(64) } as const;
/**
 * What an application's relying-party library needs: PKCE for a confidential one too, the ID-token
 * algorithm, and where logout tokens are posted when a session it signed in with ends ('' for none).
 */
const signInOptions = {
  require_pkce: { type: 'boolean', required: false },
  id_token_signed_response_alg: opt(s(8)),
  backchannel_logout_uri: opt(s(2048)),
  /** The product passes what it receives on to others: a child's data needs a real-name-checked consent. */
  discloses_to_others: { type: 'boolean', required: false },
} as const;

export const applicationRoutes = {
  listApplications: operator(
    'GET',
    'applications',
    'Registered applications (never their secrets)',
    list(applicationAnswer),
  ),
  addApplication: operator(
    'POST',
    'applications',
    'Register an application; a confidential one gets its secret once',
    applicationWithSecretAnswer,
    {
      body: {
        name: s(64),
        logo_url: opt(s(2048)),
        redirect_uris: urls,
        post_logout_redirect_uris: opt(urls),
        first_party: { type: 'boolean', required: true },
        confidential: { type: 'boolean', required: true },
        ...signInOptions,
      },
    },
  ),
  updateApplication: operator(
    'POST',
    'applications/:client_id',
    'Change an application: name, logo, redirect URIs, PKCE, ID-token algorithm (fields left out stay)',
    applicationAnswer,
    {
      params: clientIdParam,
      body: {
        name: opt(s(64)),
        logo_url: opt(s(2048)),
        redirect_uris: { ...urls, required: false },
        post_logout_redirect_uris: opt(urls),
        ...signInOptions,
      },
    },
  ),
  rotateApplicationSecret: operator(
    'POST',
    'applications/:client_id/secret',
    "Replace a confidential application's secret; the new one is shown once",
    applicationSecretAnswer,
    { params: clientIdParam },
  ),
  removeApplication: operator(
    'POST',
    'applications/:client_id/remove',
    'Remove an application and its grants',
    NO_CONTENT,
    { params: clientIdParam },
  ),
} as const;

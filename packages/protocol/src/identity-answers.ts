/** What the identity calls answer (identity-routes.ts exports their types). */
import { boolean, integer, list, object, text } from './answer-schema.ts';

/** The application a user signs in to, as the sign-in and consent screens show it. */
export const interactionAppAnswer = object({
  client_id: text(),
  name: text(),
  logo_url: text(),
  first_party: boolean(),
});

/**
 * `claims`: what the application asks for and will receive of the signed-in account; `withheld`: what
 * it asks for and will not receive until a guardian consents (docs/education.md, "What applications
 * receive"); `fresh_sign_in`: it demands a sign-in newer than the session (prompt=login, max_age);
 * `consent`: the user must approve (third-party applications).
 */
export const interactionDetailsAnswer = object({
  app: interactionAppAnswer,
  claims: list(text()),
  withheld: list(text()),
  fresh_sign_in: boolean(),
  consent: boolean(),
});

/** Where the browser goes next: back into the provider, which answers the application. */
export const interactionOutcomeAnswer = object({ redirect_to: text() });

/**
 * `app_name`, `app_logo_url`: the registered application the address belongs to, when one does (the
 * sign-in screen shows them: "Sign in to …"); empty otherwise.
 */
export const returnCheckAnswer = object({ redirect: text(), app_name: text(), app_logo_url: text() });

/**
 * `confidential`: authenticates with a secret; public ones use PKCE only. `require_pkce`: PKCE is
 * required of it (always true for public ones); `id_token_signed_response_alg`: RS256 or ES256;
 * `backchannel_logout_uri`: where logout tokens are posted (OpenID Connect Back-Channel Logout), '' for none.
 */
export const applicationAnswer = object({
  client_id: text(),
  name: text(),
  logo_url: text(),
  redirect_uris: list(text()),
  post_logout_redirect_uris: list(text()),
  first_party: boolean(),
  confidential: boolean(),
  require_pkce: boolean(),
  id_token_signed_response_alg: text(),
  backchannel_logout_uri: text(),
  /** It discloses what it receives to others: a child's data reaches it only after a real-name-checked consent. */
  discloses_to_others: boolean(),
  created_at: integer(),
});

/** `client_secret` is shown once (only its hash is kept); absent for public applications. */
export const applicationWithSecretAnswer = object({ application: applicationAnswer }, { client_secret: text() });

/** A confidential application's new secret, shown once. */
export const applicationSecretAnswer = object({ client_secret: text() });

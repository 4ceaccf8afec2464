/** Table types of the identity provider: registered applications and the provider's stored models. */
import type { Generated } from 'kysely';

export interface ApplicationsTable {
  client_id: string;
  name: string;
  logo_url: string;
  /** JSON array of absolute URLs. */
  redirect_uris: string;
  /** JSON array of absolute URLs. */
  post_logout_redirect_uris: string;
  /** 1: the platform's own product (no consent screen); 0: a third party (consent lists the claims). */
  first_party: number;
  /** Confidential applications only: keyed hash of the secret. */
  secret_hash: string | null;
  /** 1: PKCE is required of this confidential application too (public ones always need it). */
  require_pkce: number;
  /** How its ID tokens are signed: RS256 or ES256. */
  id_token_alg: string;
  /** Where a logout token is posted when a session the application signed in with ends; null: none. */
  backchannel_logout_uri: string | null;
  /**
   * 1: the product discloses what it receives to others (migration 051): a child's data reaches it only
   * after a guardian's consent given after the real-name check (services/edu/family/disclosure.ts).
   */
  discloses_to_others: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface OidcModelsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** The account the row belongs to (a grant's, a token's, a provider session's; a session link's user). */
  account_id: string | null;
  /** The application the row belongs to (`payload.clientId`), by which removing the application finds it. */
  client_id: string | null;
  /** A code's or token's provider session (`payload.sessionUid`), read with it (migration 057). */
  session_uid: string | null;
  consumed_at: number | null;
  expires_at: number;
}

export interface BackchannelLogoutsTable {
  id: Generated<number>;
  client_id: string;
  /** The `sub` of the logout token. */
  account_id: string;
  /** The `sid` the application's ID token carried. */
  sid: string;
  attempts: number;
  next_attempt_at: number;
  give_up_at: number;
  lease_holder: string | null;
  lease_until: number | null;
  created_at: number;
}

/** Table types of schools' own sign-in systems (migration 025). */
import type { Generated } from 'kysely';

export interface SchoolConnectorsTable {
  id: Generated<number>;
  school_id: number;
  /** Short, unique, in the sign-in address (`/edu/school-sign-in/<code>/…`). */
  code: string;
  /** `cas`, `saml` or `oidc` (services/edu/federation/connectors.ts lists the kinds). */
  kind: string;
  /** The name pupils search for ("第一中学统一身份认证"). */
  name: string;
  /** JSON: the upstream system's addresses (CAS: `server_url`); an OAuth2 client secret only sealed. */
  settings: string;
  /** JSON: attribute mapping (affiliation → role, class attribute, display name). */
  mapping: string;
  enabled: number;
  created_at: number;
}

export interface SchoolSignInsTable {
  /** HMAC of the upstream ticket (CAS service ticket) the session started from. */
  ticket_hash: string;
  connector_id: number;
  user_id: number;
  /** `sessions.id` (the hashed session key) of the session it started. */
  session_key: string;
  created_at: number;
  /** OpenID Connect platforms: HMAC of the platform's session id (`sid`), which a logout token names. */
  upstream_session: string | null;
  /** OpenID Connect platforms: HMAC of the person at the platform (`sub`), which a logout token names. */
  upstream_subject: string | null;
  /**
   * What signing out at the school's system from here needs (migration 036), sealed: the ID token of an
   * OpenID Connect platform, the NameID and SessionIndex of a SAML identity provider; null otherwise.
   */
  upstream_sign_out: string | null;
}

/** The last good copy of a federation's signed metadata aggregate (migration 031). */
export interface SamlMetadataTable {
  url: string;
  /** The signed content of the aggregate (its signature checked against the federation key first). */
  xml: string;
  fetched_at: number;
  /** Last fetch attempt, good or not: refreshes wait the interval after a failure too. */
  tried_at: number;
}

export interface SamlRequestsTable {
  /** The AuthnRequest's ID; the response's InResponseTo takes it once. */
  request_id: string;
  connector_id: number;
  expires_at: number;
}

/** Upstream tokens taken once (migration 035): SAML assertions, platforms' logout tokens. */
export interface UpstreamTokensUsedTable {
  /** HMAC of what names the token: the issuer and the assertion ID, the connector and the logout token's `jti`. */
  token_key: string;
  expires_at: number;
}

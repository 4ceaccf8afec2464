/** Kysely table types. Times are unix milliseconds; booleans are 0/1 (SQLite has no boolean). */

import type { AgeBand, ConsentState } from '@edupass/protocol';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DataExportsTable, SecurityEventsTable } from './account/data-rights-schema.ts';
import type {
  AdminAuditTable,
  AuditChainsTable,
  DataRequestsTable,
  ReportCountersTable,
  ReportPeopleReadTable,
  StaffAccessApprovalsTable,
} from './admin/rights-schema.ts';
import type {
  ClassesTable,
  ClassMembersTable,
  EduAccessLogTable,
  GuardianAdultChecksTable,
  GuardianConsentsTable,
  GuardianRequestsTable,
  GuardiansTable,
  MinorSettingsTable,
  PupilAccountsTable,
  SchoolAgreementsTable,
  SchoolMembersTable,
  SchoolNameGramsTable,
  SchoolNumberPairsTable,
  SchoolPersonKeysTable,
  SchoolsTable,
  SignInBadgesTable,
} from './edu/edu-schema.ts';
import type {
  SamlMetadataTable,
  SamlRequestsTable,
  SchoolConnectorsTable,
  SchoolSignInsTable,
  UpstreamTokensUsedTable,
} from './edu/federation/connector-schema.ts';
import type {
  AddressBooksTable,
  GuardianInvitesTable,
  RosterJobsTable,
  RosterLinksTable,
} from './edu/roster/roster-schema.ts';
import type { ApplicationsTable, BackchannelLogoutsTable, OidcModelsTable } from './identity/identity-schema.ts';

export interface UsersTable {
  id: Generated<number>;
  pid: string;
  phone: string | null;
  /** 1 when a code sent to `phone` proved it; 0 for a number an operator imported, until then. */
  phone_verified: Generated<number>;
  email: string | null;
  /** 1 when a code sent to `email` proved it; 0 for an address an operator imported, until then. */
  email_verified: Generated<number>;
  username: string | null;
  /** Lower-cased username: usernames are unique regardless of case. */
  username_key: string | null;
  password_hash: string | null;
  weak_password: number;
  nickname: string | null;
  avatar_url: string;
  fullname: string;
  sex: number | null;
  birthday: number | null;
  qq: string;
  description: string;
  grade: number | null;
  role: string;
  blocked_at: number | null;
  /** While set, the account is frozen and is erased at this time (deletion with a grace period). */
  erase_at: number | null;
  /** Who asked for the deletion: `user` or `operator`. */
  erase_requested_by: string | null;
  created_at: number;
  updated_at: number;
  /** `YYYY-MM` as answered at sign-up (migration 023); null when never asked. */
  birth_year_month: string | null;
  /** The age band at sign-up or the class's (services/edu/family/age.ts); null when unknown. */
  age_band: AgeBand | null;
  /** Guardian consent of a child under 14 (services/edu/family/consent.ts); null when none is needed. */
  consent_state: ConsentState | null;
  /**
   * Since when the account waits for consent, where not since `created_at` (a class's grade corrected
   * to one under 14; migration 041); the sweep counts from it. Null otherwise.
   */
  consent_pending_since: ColumnType<number | null, number | null | undefined, number | null>;
  /** An operator's duties, comma-separated: `system`, `security`, `auditor` (protocol's operator-duties.ts). */
  operator_duties: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the password was last set (the staff policy's change interval counts from it); null: never. */
  password_changed_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The blind index of the phone (store/sealed-records.ts, migration 061); null: none, or not yet written. */
  phone_index: ColumnType<string | null, string | null | undefined, string | null>;
  /** The blind index of the e-mail address, as `phone_index`. */
  email_index: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CodesTable {
  target: string;
  scene: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  created_at: number;
}

export interface TicketsTable {
  id_hash: string;
  kind: string;
  subject: string;
  data: string;
  expires_at: number;
  used_at: number | null;
}

export interface CountersTable {
  key: string;
  count: number;
  expires_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  method: string;
  ip: string;
  user_agent: string;
  created_at: number;
  revoked_at: number | null;
  /** The product the session was started for (its tokens' audience); null: the default product. */
  pid: string | null;
  /** When the session passed the second factor (at its sign-in or since); null: never. */
  second_factor_at: number | null;
  /** 1: a console or teaching session (signed in by staff), ended after STAFF_IDLE_MINUTES without a call. */
  staff: ColumnType<number, number | undefined, number>;
  /** The session's last call, written at most once a minute (services/sessions/idle.ts); null: none since sign-in. */
  last_active_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A staff member's previous password hashes (services/passwords/staff-policy.ts: no reuse of the last N). */
export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: number;
}

/** A token is rotated (spent) once its successor is stored: the successor's `created_at` is when. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
}

export interface AgreementsTable {
  id: Generated<number>;
  code: string;
  title: string;
  version: number;
  url: string;
  content: string;
  effective_at: number;
  created_at: number;
}

/** An agreement version's title and content in one language (AGREEMENT_LANGUAGES). */
export interface AgreementTextsTable {
  agreement_id: number;
  lang: string;
  title: string;
  content: string;
}

export interface AgreementSignaturesTable {
  user_id: number;
  agreement_id: number;
  signed_at: number;
}

export interface UserOauthsTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  openid: string;
  unionid: string | null;
  nickname: string;
  avatar_url: string;
  created_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  recipient: string;
  channel: string;
  text: string;
  code: string;
  sent_at: number;
}

/** A key that signs access tokens (store/sessions/signing-keys.ts). */
export interface WebhookSequencesTable {
  user_id: number;
  /** The number of the user's last webhook event. */
  last: number;
}

export interface SigningKeysTable {
  generation: number;
  kid: string;
  alg: string;
  public_jwk: string;
  private_sealed: string;
  created_at: number;
  signs_from: number;
  /** JSON array of the public JWKs that verify this generation's ID tokens (RS256, ES256). */
  id_token_public_jwks: string | null;
  /** The ID-token keys' private JWKs, sealed; null until first read for rows made before them. */
  id_token_private_sealed: string | null;
}

export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ProductsTable {
  pid: string;
  product_code: string;
}

export interface TotpSecretsTable {
  user_id: number;
  /** The base32 secret sealed with the keyring's sealing key (sealed-values.ts), named by the user id. */
  secret_sealed: string;
  confirmed_at: number | null;
  /** The newest 30-second step a code was accepted for: a code of that step or earlier is a replay. */
  last_step: number | null;
  created_at: number;
}

export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** Base64url credential id, as WebAuthn names it. */
  credential_id: string;
  /** Base64url COSE public key. */
  public_key: string;
  counter: number;
  /** JSON array of transports the authenticator reported. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface RecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  pid: string;
  url: string;
  /** Subscribed event types, comma-separated. */
  events: string;
  /** The signing secret, sealed (services/security/sealed-values.ts). */
  secret_sealed: string;
  enabled: number;
  disabled_reason: string;
  consecutive_failures: number;
  /** When the current run of failed attempts began; null after a success. */
  failing_since: number | null;
  created_at: number;
}

export interface WebhookEventsTable {
  /** `msg_…`: the `webhook-id` of every attempt. */
  id: string;
  type: string;
  pid: string;
  /** The JSON body delivered, exactly as signed. */
  payload: string;
  /** The account the event is about (`data.user_id`), by which erasure finds it; null before migration 043. */
  user_id: number | null;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  /** Past this a failed attempt is the last: the delivery is marked failed (a day after the event). */
  give_up_at: number;
  lease_holder: string | null;
  lease_until: number | null;
  created_at: number;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: number;
  duration_ms: number;
  response_status: number;
  error: string;
  ok: number;
}

export interface Database {
  users: UsersTable;
  codes: CodesTable;
  tickets: TicketsTable;
  counters: CountersTable;
  sessions: SessionsTable;
  password_history: PasswordHistoryTable;
  refresh_tokens: RefreshTokensTable;
  agreements: AgreementsTable;
  agreement_texts: AgreementTextsTable;
  agreement_signatures: AgreementSignaturesTable;
  user_oauths: UserOauthsTable;
  outbox: OutboxTable;
  settings: SettingsTable;
  leases: LeasesTable;
  signing_keys: SigningKeysTable;
  webhook_sequences: WebhookSequencesTable;
  products: ProductsTable;
  admin_audit: AdminAuditTable;
  audit_chains: AuditChainsTable;
  totp_secrets: TotpSecretsTable;
  passkeys: PasskeysTable;
  recovery_codes: RecoveryCodesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  applications: ApplicationsTable;
  oidc_models: OidcModelsTable;
  backchannel_logouts: BackchannelLogoutsTable;
  schools: SchoolsTable;
  school_name_grams: SchoolNameGramsTable;
  school_members: SchoolMembersTable;
  classes: ClassesTable;
  school_person_keys: SchoolPersonKeysTable;
  school_number_pairs: SchoolNumberPairsTable;
  class_members: ClassMembersTable;
  pupil_accounts: PupilAccountsTable;
  sign_in_badges: SignInBadgesTable;
  edu_access_log: EduAccessLogTable;
  school_connectors: SchoolConnectorsTable;
  school_sign_ins: SchoolSignInsTable;
  saml_metadata: SamlMetadataTable;
  saml_requests: SamlRequestsTable;
  upstream_tokens_used: UpstreamTokensUsedTable;
  roster_jobs: RosterJobsTable;
  roster_links: RosterLinksTable;
  address_books: AddressBooksTable;
  guardian_invites: GuardianInvitesTable;
  guardian_consents: GuardianConsentsTable;
  guardian_adult_checks: GuardianAdultChecksTable;
  school_agreements: SchoolAgreementsTable;
  guardians: GuardiansTable;
  guardian_requests: GuardianRequestsTable;
  minor_settings: MinorSettingsTable;
  data_exports: DataExportsTable;
  security_events: SecurityEventsTable;
  staff_access_approvals: StaffAccessApprovalsTable;
  data_requests: DataRequestsTable;
  report_counters: ReportCountersTable;
  report_people_read: ReportPeopleReadTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Agreement = Selectable<AgreementsTable>;
export type Session = Selectable<SessionsTable>;

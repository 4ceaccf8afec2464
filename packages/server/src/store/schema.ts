/** Kysely table types. Times are unix milliseconds; booleans are 0/1 (SQLite has no boolean). */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { ApplicationsTable, OidcModelsTable } from './identity-schema.ts';

export interface UsersTable {
  id: Generated<number>;
  pid: string;
  phone: string | null;
  email: string | null;
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
  created_at: number;
  updated_at: number;
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
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
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

export interface AdminAuditTable {
  id: Generated<number>;
  operator_id: number;
  action: string;
  target: string;
  detail: string;
  at: number;
}

export interface Database {
  users: UsersTable;
  codes: CodesTable;
  tickets: TicketsTable;
  counters: CountersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  agreements: AgreementsTable;
  agreement_signatures: AgreementSignaturesTable;
  user_oauths: UserOauthsTable;
  outbox: OutboxTable;
  settings: SettingsTable;
  leases: LeasesTable;
  products: ProductsTable;
  admin_audit: AdminAuditTable;
  applications: ApplicationsTable;
  oidc_models: OidcModelsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Agreement = Selectable<AgreementsTable>;
export type Session = Selectable<SessionsTable>;

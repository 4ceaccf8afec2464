/**
 * The console's calls for users, agreements, captcha settings and the audit log, typed; answers are read
 * with `parse.ts`, never trusted as-is.
 */
import {
  type AuditEntry,
  adminRoutes,
  type CaptchaKeySource,
  type CaptchaPolicyName,
  type CaptchaProviderName,
  type CaptchaRiskThresholds,
  type CaptchaSettings,
  type CaptchaVendorName,
  type CaptchaVendorState,
  isCaptchaPolicy,
  isCaptchaProvider,
  isRecord,
  type OperatorSummary,
} from '@edupass/protocol';
import { adminCall, getList } from './admin-call.ts';
import { bool, items, list, num, numOrNull, record, str, strOrNull } from './parse.ts';

export interface UserRow {
  id: number;
  phone: string;
  email: string;
  username: string;
  nickname: string;
  avatarUrl: string;
  role: string;
  blocked: boolean;
  createdAt: number | null;
}

const userRow = (u: Record<string, unknown>): UserRow => ({
  id: num(u.id, 'user id'),
  phone: str(u.phone),
  email: str(u.email),
  username: str(u.username),
  nickname: str(u.nickname),
  avatarUrl: str(u.avatar_url),
  role: str(u.role),
  blocked: bool(u.blocked),
  createdAt: numOrNull(u.created_at),
});

export interface UserPage {
  items: UserRow[];
  nextCursor: number | undefined;
}

export const searchUsers = async (q: string, cursor: number | undefined, limit = 30): Promise<UserPage> => {
  const answer = record(
    await adminCall(adminRoutes.searchUsers, { query: { q: q.trim() || undefined, cursor, limit } }),
  );
  return { items: items(answer.items, userRow, 'user'), nextCursor: numOrNull(answer.next_cursor) ?? undefined };
};

export interface UserDetail {
  user: {
    id: number;
    nickname: string;
    avatarUrl: string;
    role: string;
    blocked: boolean;
    blockedAt: number | null;
    createdAt: number | null;
  };
  identities: {
    phone: string;
    email: string;
    username: string;
    hasPassword: boolean;
    wechat: string | null;
    qq: string | null;
  };
  agreements: { id: number; code: string; title: string; version: number; signedAt: number | null }[];
  sessions: {
    id: string;
    method: string;
    ip: string;
    userAgent: string;
    createdAt: number | null;
    revokedAt: number | null;
    live: boolean;
  }[];
}

export const getUser = async (id: number): Promise<UserDetail> => {
  const answer = record(await adminCall(adminRoutes.getUser, { params: { id } }));
  const u = record(answer.user, 'user');
  const ids = record(answer.identities, 'identities');
  return {
    user: {
      id: num(u.id),
      nickname: str(u.nickname),
      avatarUrl: str(u.avatar_url),
      role: str(u.role),
      blocked: bool(u.blocked),
      blockedAt: numOrNull(u.blocked_at),
      createdAt: numOrNull(u.created_at),
    },
    identities: {
      phone: str(ids.phone),
      email: str(ids.email),
      username: str(ids.username),
      hasPassword: bool(ids.has_password),
      wechat: strOrNull(ids.wechat),
      qq: strOrNull(ids.qq),
    },
    agreements: items(
      answer.agreements,
      (a) => ({
        id: num(a.id),
        code: str(a.code),
        title: str(a.title),
        version: num(a.version),
        signedAt: numOrNull(a.signed_at),
      }),
      'agreement',
    ),
    sessions: items(
      answer.sessions,
      (s) => ({
        id: String(s.id),
        method: str(s.method),
        ip: str(s.ip),
        userAgent: str(s.user_agent),
        createdAt: numOrNull(s.created_at),
        revokedAt: numOrNull(s.revoked_at),
        live: bool(s.live),
      }),
      'session',
    ),
  };
};

export const blockUser = (id: number) => adminCall(adminRoutes.blockUser, { params: { id } });
export const unblockUser = (id: number) => adminCall(adminRoutes.unblockUser, { params: { id } });
export const revokeSessions = (id: number) => adminCall(adminRoutes.revokeUserSessions, { params: { id } });
export const deleteUser = (id: number) => adminCall(adminRoutes.deleteUser, { params: { id } });

export interface AgreementVersion {
  id: number;
  code: string;
  title: string;
  content: string;
  version: number;
  url: string;
  effectiveAt: number | null;
  createdAt: number | null;
}

const agreementVersion = (a: Record<string, unknown>): AgreementVersion => ({
  id: num(a.id),
  code: str(a.code),
  title: str(a.title),
  content: str(a.content),
  version: num(a.version),
  url: str(a.url),
  effectiveAt: numOrNull(a.effective_at),
  createdAt: numOrNull(a.created_at),
});

export const listAgreementVersions = () => getList(adminRoutes.listAllAgreements, {}, agreementVersion, 'agreement');

export type NewAgreement = {
  code: string;
  title: string;
  content: string;
  url?: string;
  effective_at?: number;
};

export const publishAgreement = async (input: NewAgreement) =>
  agreementVersion(record(await adminCall(adminRoutes.publishAgreement, { body: input }), 'agreement'));

const providerOrNull = (value: unknown) => (isCaptchaProvider(value) ? value : null);
const SOURCES: readonly unknown[] = ['console', 'environment', 'default'] satisfies CaptchaKeySource[];
const sourceOf = (value: unknown) => (SOURCES.includes(value) ? (value as CaptchaKeySource) : null);

export const getCaptchaSettings = async (): Promise<CaptchaSettings> => {
  const answer = record(await adminCall(adminRoutes.getCaptchaSettings));
  return {
    policies: list(answer.policies).flatMap((value) => {
      const p = record(value, 'policy');
      return isCaptchaPolicy(p.policy) ? [{ pid: str(p.pid), scene: str(p.scene), policy: p.policy }] : [];
    }),
    configured: Object.fromEntries(
      Object.entries(record(answer.configured)).filter((entry): entry is [string, CaptchaPolicyName] =>
        isCaptchaPolicy(entry[1]),
      ),
    ),
    providers: items(
      answer.providers,
      (p) => ({
        pid: str(p.pid),
        operator: providerOrNull(p.operator),
        configured: providerOrNull(p.configured),
        effective: providerOrNull(p.effective) ?? 'SLIDE',
      }),
      'provider',
    ),
    vendors: items(
      answer.vendors,
      (v): CaptchaVendorState => ({
        name: str(v.name) as CaptchaVendorName,
        configured: bool(v.configured),
        missing: list(v.missing).map((m) => str(m)),
        fields: items(
          v.fields,
          (f) => ({
            name: str(f.name),
            env: str(f.env),
            secret: bool(f.secret),
            url: bool(f.url),
            ...(typeof f.value === 'string' ? { value: f.value } : {}),
            source: sourceOf(f.source),
            ...(f.unreadable === true ? { unreadable: true } : {}),
          }),
          'field',
        ),
      }),
      'vendor',
    ),
    ...(isRecord(answer.risk) ? { risk: riskThresholds(answer.risk) } : {}),
  };
};

const riskThresholds = (r: Record<string, unknown>): CaptchaRiskThresholds => ({
  windowSeconds: num(r.windowSeconds),
  identityFailures: num(r.identityFailures),
  loginAttempts: num(r.loginAttempts),
  ipFailures: num(r.ipFailures),
  ipLoginFailures: num(r.ipLoginFailures),
  ipSends: num(r.ipSends),
  ruleRequests: num(r.ruleRequests),
  fallbackRule: str(r.fallbackRule),
});

export const setCaptchaPolicy = (pid: string, scene: string, policy: CaptchaPolicyName) =>
  adminCall(adminRoutes.setCaptchaPolicy, { body: { pid, scene, policy } });
export const clearCaptchaPolicy = (pid: string, scene: string) =>
  adminCall(adminRoutes.clearCaptchaPolicy, { body: { pid, scene } });
export const setCaptchaProvider = (pid: string, provider: CaptchaProviderName) =>
  adminCall(adminRoutes.setCaptchaProvider, { body: { pid, provider } });
export const clearCaptchaProvider = (pid: string) => adminCall(adminRoutes.clearCaptchaProvider, { body: { pid } });
/** `customEndpoint`: an endpoint outside the vendor's documented hosts, on purpose. */
export const setVendorKeys = (vendor: CaptchaVendorName, values: Record<string, string>, customEndpoint = false) =>
  adminCall(adminRoutes.setCaptchaVendorKeys, {
    body: { vendor, values, ...(customEndpoint ? { custom_endpoint: true } : {}) },
  });
/** Removes the console's values of `fields` (all of the vendor's when absent). */
export const clearVendorKeys = (vendor: CaptchaVendorName, fields?: string[]) =>
  adminCall(adminRoutes.clearCaptchaVendorKeys, { body: { vendor, fields } });

export interface AuditFilter {
  action?: string | undefined;
  operator?: number | undefined;
}

export const listAudit = (filter: AuditFilter, before: number | undefined, limit: number) =>
  getList(
    adminRoutes.listAudit,
    { action: filter.action || undefined, operator: filter.operator, before, limit },
    (e): AuditEntry => ({
      id: num(e.id),
      operator_id: num(e.operator_id),
      operator_phone: str(e.operator_phone),
      operator_name: str(e.operator_name),
      action: str(e.action),
      target: str(e.target),
      detail: str(e.detail),
      at: num(e.at),
    }),
    'audit entry',
  );

export const listOperators = () =>
  getList(
    adminRoutes.listOperators,
    {},
    (o): OperatorSummary => ({ id: num(o.id), phone: str(o.phone), name: str(o.name) }),
    'operator',
  );

/** Every call the console makes, typed; answers are read with `parse.ts`, never trusted as-is. */
import {
  type ApiCodeCount,
  type AuditEntry,
  adminRoutes,
  CAPTCHA_POLICIES,
  CAPTCHA_PROVIDERS,
  type CaptchaKeySource,
  type CaptchaPolicyName,
  type CaptchaProviderName,
  type CaptchaRiskThresholds,
  type CaptchaSettings,
  type CaptchaVendorName,
  type CaptchaVendorState,
  type ErrorGroup,
  type OperatorSummary,
  type VitalPoint,
} from '@edupass/protocol';
import { adminFetch, type Query } from './admin-fetch.ts';
import { bool, items, list, num, numOrNull, record, str, strOrNull } from './parse.ts';

const at = (path: string, id: number) => path.replace(':id', String(id));

/** A GET whose answer is a list of objects, each read by `read`. */
const getList = async <T>(path: string, query: Query, read: (item: Record<string, unknown>) => T, what?: string) =>
  items(await adminFetch(path, { query }), read, what);

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
    await adminFetch(adminRoutes.searchUsers.path, { query: { q: q.trim() || undefined, cursor, limit } }),
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
  const answer = record(await adminFetch(at(adminRoutes.getUser.path, id)));
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

export const blockUser = (id: number) => adminFetch(at(adminRoutes.blockUser.path, id), { method: 'POST' });
export const unblockUser = (id: number) => adminFetch(at(adminRoutes.unblockUser.path, id), { method: 'POST' });
export const revokeSessions = (id: number) =>
  adminFetch(at(adminRoutes.revokeUserSessions.path, id), { method: 'POST' });

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

export const listAgreementVersions = () =>
  getList(adminRoutes.listAllAgreements.path, {}, agreementVersion, 'agreement');

export interface NewAgreement {
  code: string;
  title: string;
  content: string;
  url?: string;
  effective_at?: number;
}

export const publishAgreement = async (input: NewAgreement) =>
  agreementVersion(
    record(await adminFetch(adminRoutes.publishAgreement.path, { method: 'POST', body: input }), 'agreement'),
  );

const isPolicy = (value: unknown): value is CaptchaPolicyName => CAPTCHA_POLICIES.includes(value as CaptchaPolicyName);

const isProvider = (value: unknown): value is CaptchaProviderName =>
  CAPTCHA_PROVIDERS.includes(value as CaptchaProviderName);
const providerOrNull = (value: unknown) => (isProvider(value) ? value : null);
const SOURCES: readonly unknown[] = ['console', 'environment', 'default'] satisfies CaptchaKeySource[];
const sourceOf = (value: unknown) => (SOURCES.includes(value) ? (value as CaptchaKeySource) : null);

export const getCaptchaSettings = async (): Promise<CaptchaSettings> => {
  const answer = record(await adminFetch(adminRoutes.getCaptchaSettings.path));
  return {
    policies: list(answer.policies).flatMap((value) => {
      const p = record(value, 'policy');
      return isPolicy(p.policy) ? [{ pid: str(p.pid), scene: str(p.scene), policy: p.policy }] : [];
    }),
    configured: Object.fromEntries(
      Object.entries(record(answer.configured)).filter((entry): entry is [string, CaptchaPolicyName] =>
        isPolicy(entry[1]),
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
    ...(typeof answer.risk === 'object' && answer.risk !== null ? { risk: riskThresholds(record(answer.risk)) } : {}),
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
  adminFetch(adminRoutes.setCaptchaPolicy.path, { method: 'POST', body: { pid, scene, policy } });
export const clearCaptchaPolicy = (pid: string, scene: string) =>
  adminFetch(adminRoutes.clearCaptchaPolicy.path, { method: 'POST', body: { pid, scene } });
export const setCaptchaProvider = (pid: string, provider: CaptchaProviderName) =>
  adminFetch(adminRoutes.setCaptchaProvider.path, { method: 'POST', body: { pid, provider } });
export const clearCaptchaProvider = (pid: string) =>
  adminFetch(adminRoutes.clearCaptchaProvider.path, { method: 'POST', body: { pid } });
/** `customEndpoint`: an endpoint outside the vendor's documented hosts, on purpose. */
export const setVendorKeys = (vendor: CaptchaVendorName, values: Record<string, string>, customEndpoint = false) =>
  adminFetch(adminRoutes.setCaptchaVendorKeys.path, {
    method: 'POST',
    body: { vendor, values, ...(customEndpoint ? { custom_endpoint: true } : {}) },
  });
/** Removes the console's values of `fields` (all of the vendor's when absent). */
export const clearVendorKeys = (vendor: CaptchaVendorName, fields?: string[]) =>
  adminFetch(adminRoutes.clearCaptchaVendorKeys.path, { method: 'POST', body: { vendor, fields } });

export interface AuditFilter {
  action?: string | undefined;
  operator?: number | undefined;
}

export const listAudit = (filter: AuditFilter, before: number | undefined, limit: number) =>
  getList(
    adminRoutes.listAudit.path,
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
    adminRoutes.listOperators.path,
    {},
    (o): OperatorSummary => ({ id: num(o.id), phone: str(o.phone), name: str(o.name) }),
    'operator',
  );

/** A product and a window in unix ms. */
export interface Window {
  product: string;
  from: number;
  to: number;
}
export type Bucket = 'hour' | 'day';
const windowQuery = (w: Window): Query => ({ product: w.product, from: w.from, to: w.to });

export interface EventCount {
  key: string;
  bucket: number;
  count: number;
}
export const eventCounts = (w: Window, bucket: Bucket, key?: string): Promise<EventCount[]> =>
  getList('/admin/usage/events', { ...windowQuery(w), bucket, key: key || undefined }, (r) => ({
    key: str(r.key),
    bucket: num(r.bucket),
    count: num(r.count),
  }));

export const uniqueCounts = async (w: Window) => {
  const r = record(await adminFetch('/admin/usage/uniques', { query: windowQuery(w) }));
  return { devices: num(r.devices), users: num(r.users), events: num(r.events) };
};

export interface DurationStats {
  key: string;
  count: number;
  p50: number | null;
  p75: number | null;
  p90: number | null;
  p99: number | null;
}
export const durationStats = async (w: Window, key: string): Promise<DurationStats> => {
  const r = record(await adminFetch('/admin/usage/durations', { query: { ...windowQuery(w), key } }));
  return {
    key: str(r.key),
    count: num(r.count),
    p50: numOrNull(r.p50),
    p75: numOrNull(r.p75),
    p90: numOrNull(r.p90),
    p99: numOrNull(r.p99),
  };
};

export const errorGroups = (w: Window): Promise<ErrorGroup[]> =>
  getList(adminRoutes.monitorErrorGroups.path, windowQuery(w), (r) => ({
    message: str(r.message),
    count: num(r.count),
    pages: num(r.pages),
    last_seen: num(r.last_seen),
  }));

export interface ApiFailureRate {
  path: string;
  failures: number;
  businessErrors: number;
  estimatedCalls: number;
  failureRate: number;
}
export const apiFailureRates = (w: Window): Promise<ApiFailureRate[]> =>
  getList('/admin/monitor/api', windowQuery(w), (r) => ({
    path: str(r.path),
    failures: num(r.failures),
    businessErrors: num(r.business_errors),
    estimatedCalls: num(r.estimated_calls),
    failureRate: num(r.failure_rate),
  }));

export const apiCodes = (w: Window): Promise<ApiCodeCount[]> =>
  getList(adminRoutes.monitorApiCodes.path, windowQuery(w), (r) => ({
    path: str(r.path),
    code: num(r.code),
    business: bool(r.business),
    count: num(r.count),
  }));

export const vitalsOverall = (w: Window) =>
  getList('/admin/monitor/vitals', windowQuery(w), (r) => ({
    name: str(r.name),
    count: num(r.count),
    p75: numOrNull(r.p75),
  }));

export const vitalsSeries = (w: Window, bucket: Bucket): Promise<VitalPoint[]> =>
  getList(adminRoutes.monitorVitalsSeries.path, { ...windowQuery(w), bucket }, (r) => ({
    name: str(r.name),
    bucket: num(r.bucket),
    count: num(r.count),
    p75: num(r.p75),
  }));

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
  type CaptchaSettings,
  type CaptchaVendorName,
  type CaptchaVendorState,
  type ErrorGroup,
  type OperatorSummary,
  type VitalPoint,
} from '@edupass/protocol';
import { adminFetch, type Query } from './admin-fetch.ts';
import { bool, list, num, numOrNull, record, str, strOrNull } from './parse.ts';

const at = (path: string, id: number) => path.replace(':id', String(id));

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

const userRow = (value: unknown): UserRow => {
  const u = record(value, 'user');
  return {
    id: num(u.id, 'user id'),
    phone: str(u.phone),
    email: str(u.email),
    username: str(u.username),
    nickname: str(u.nickname),
    avatarUrl: str(u.avatar_url),
    role: str(u.role),
    blocked: bool(u.blocked),
    createdAt: numOrNull(u.created_at),
  };
};

export interface UserPage {
  items: UserRow[];
  nextCursor: number | undefined;
}

export const searchUsers = async (q: string, cursor: number | undefined, limit = 30): Promise<UserPage> => {
  const answer = record(
    await adminFetch(adminRoutes.searchUsers.path, { query: { q: q.trim() || undefined, cursor, limit } }),
  );
  return { items: list(answer.items).map(userRow), nextCursor: numOrNull(answer.next_cursor) ?? undefined };
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
    agreements: list(answer.agreements).map((value) => {
      const a = record(value, 'agreement');
      return {
        id: num(a.id),
        code: str(a.code),
        title: str(a.title),
        version: num(a.version),
        signedAt: numOrNull(a.signed_at),
      };
    }),
    sessions: list(answer.sessions).map((value) => {
      const s = record(value, 'session');
      return {
        id: String(s.id),
        method: str(s.method),
        ip: str(s.ip),
        userAgent: str(s.user_agent),
        createdAt: numOrNull(s.created_at),
        revokedAt: numOrNull(s.revoked_at),
        live: bool(s.live),
      };
    }),
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

const agreementVersion = (value: unknown): AgreementVersion => {
  const a = record(value, 'agreement');
  return {
    id: num(a.id),
    code: str(a.code),
    title: str(a.title),
    content: str(a.content),
    version: num(a.version),
    url: str(a.url),
    effectiveAt: numOrNull(a.effective_at),
    createdAt: numOrNull(a.created_at),
  };
};

export const listAgreementVersions = async () =>
  list(await adminFetch(adminRoutes.listAllAgreements.path)).map(agreementVersion);

export interface NewAgreement {
  code: string;
  title: string;
  content: string;
  url?: string;
  effective_at?: number;
}

export const publishAgreement = async (input: NewAgreement) =>
  agreementVersion(await adminFetch(adminRoutes.publishAgreement.path, { method: 'POST', body: input }));

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
    providers: list(answer.providers).map((value) => {
      const p = record(value, 'provider');
      return {
        pid: str(p.pid),
        operator: providerOrNull(p.operator),
        configured: providerOrNull(p.configured),
        effective: providerOrNull(p.effective) ?? 'SLIDE',
      };
    }),
    vendors: list(answer.vendors).map((value): CaptchaVendorState => {
      const v = record(value, 'vendor');
      return {
        name: str(v.name) as CaptchaVendorName,
        configured: bool(v.configured),
        missing: list(v.missing).map((m) => str(m)),
        fields: list(v.fields).map((item) => {
          const f = record(item, 'field');
          return {
            name: str(f.name),
            env: str(f.env),
            secret: bool(f.secret),
            url: bool(f.url),
            ...(typeof f.value === 'string' ? { value: f.value } : {}),
            source: sourceOf(f.source),
            ...(f.unreadable === true ? { unreadable: true } : {}),
          };
        }),
      };
    }),
  };
};

export const setCaptchaPolicy = (pid: string, scene: string, policy: CaptchaPolicyName) =>
  adminFetch(adminRoutes.setCaptchaPolicy.path, { method: 'POST', body: { pid, scene, policy } });
export const clearCaptchaPolicy = (pid: string, scene: string) =>
  adminFetch(adminRoutes.clearCaptchaPolicy.path, { method: 'POST', body: { pid, scene } });
export const setCaptchaProvider = (pid: string, provider: CaptchaProviderName) =>
  adminFetch(adminRoutes.setCaptchaProvider.path, { method: 'POST', body: { pid, provider } });
export const clearCaptchaProvider = (pid: string) =>
  adminFetch(adminRoutes.clearCaptchaProvider.path, { method: 'POST', body: { pid } });
export const setVendorKeys = (vendor: CaptchaVendorName, values: Record<string, string>) =>
  adminFetch(adminRoutes.setCaptchaVendorKeys.path, { method: 'POST', body: { vendor, values } });
/** Removes the console's values of `fields` (all of the vendor's when absent). */
export const clearVendorKeys = (vendor: CaptchaVendorName, fields?: string[]) =>
  adminFetch(adminRoutes.clearCaptchaVendorKeys.path, { method: 'POST', body: { vendor, fields } });

export interface AuditFilter {
  action?: string | undefined;
  operator?: number | undefined;
}

export const listAudit = async (filter: AuditFilter, before: number | undefined, limit: number) =>
  list(
    await adminFetch(adminRoutes.listAudit.path, {
      query: { action: filter.action || undefined, operator: filter.operator, before, limit },
    }),
  ).map((value): AuditEntry => {
    const e = record(value, 'audit entry');
    return {
      id: num(e.id),
      operator_id: num(e.operator_id),
      operator_phone: str(e.operator_phone),
      operator_name: str(e.operator_name),
      action: str(e.action),
      target: str(e.target),
      detail: str(e.detail),
      at: num(e.at),
    };
  });

export const listOperators = async () =>
  list(await adminFetch(adminRoutes.listOperators.path)).map((value): OperatorSummary => {
    const o = record(value, 'operator');
    return { id: num(o.id), phone: str(o.phone), name: str(o.name) };
  });

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
export const eventCounts = async (w: Window, bucket: Bucket, key?: string): Promise<EventCount[]> =>
  list(await adminFetch('/admin/usage/events', { query: { ...windowQuery(w), bucket, key: key || undefined } })).map(
    (value) => {
      const r = record(value);
      return { key: str(r.key), bucket: num(r.bucket), count: num(r.count) };
    },
  );

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

export const errorGroups = async (w: Window): Promise<ErrorGroup[]> =>
  list(await adminFetch(adminRoutes.monitorErrorGroups.path, { query: windowQuery(w) })).map((value) => {
    const r = record(value);
    return { message: str(r.message), count: num(r.count), pages: num(r.pages), last_seen: num(r.last_seen) };
  });

export interface ApiFailureRate {
  path: string;
  failures: number;
  businessErrors: number;
  estimatedCalls: number;
  failureRate: number;
}
export const apiFailureRates = async (w: Window): Promise<ApiFailureRate[]> =>
  list(await adminFetch('/admin/monitor/api', { query: windowQuery(w) })).map((value) => {
    const r = record(value);
    return {
      path: str(r.path),
      failures: num(r.failures),
      businessErrors: num(r.business_errors),
      estimatedCalls: num(r.estimated_calls),
      failureRate: num(r.failure_rate),
    };
  });

export const apiCodes = async (w: Window): Promise<ApiCodeCount[]> =>
  list(await adminFetch(adminRoutes.monitorApiCodes.path, { query: windowQuery(w) })).map((value) => {
    const r = record(value);
    return { path: str(r.path), code: num(r.code), business: bool(r.business), count: num(r.count) };
  });

export const vitalsOverall = async (w: Window) =>
  list(await adminFetch('/admin/monitor/vitals', { query: windowQuery(w) })).map((value) => {
    const r = record(value);
    return { name: str(r.name), count: num(r.count), p75: numOrNull(r.p75) };
  });

export const vitalsSeries = async (w: Window, bucket: Bucket): Promise<VitalPoint[]> =>
  list(await adminFetch(adminRoutes.monitorVitalsSeries.path, { query: { ...windowQuery(w), bucket } })).map(
    (value) => {
      const r = record(value);
      return { name: str(r.name), bucket: num(r.bucket), count: num(r.count), p75: num(r.p75) };
    },
  );

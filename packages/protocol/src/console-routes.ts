/**
 * The operator console's calls beyond users and agreements: captcha policy per product and scene,
 * and the monitoring figures the dashboards draw (error groups with last seen, API outcome codes per
 * path, web-vitals p75 per time bucket). Operators only; spread into `adminRoutes`.
 */
import { int, opt, s } from './route-fields.ts';
import type { Method, RouteSpec } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
const operator = <const E extends Partial<RouteSpec>>(method: Method, path: string, summary: string, extra: E) =>
  ({ method, path: `/admin/${path}`, host: 'tiger', auth: 'operator', summary, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: 'operator'; summary: string; status: 200 },
    keyof E
  > &
    E;

/** A product and a time window in unix ms (default: the 7 days up to now). */
const windowQuery = { product: s(64), from: opt(int()), to: opt(int()) } as const;

export const consoleRoutes = {
  getCaptchaSettings: operator(
    'GET',
    'captcha',
    'Captcha policies per product and scene, providers and which vendor keys are set (never their secrets)',
    {},
  ),
  setCaptchaPolicy: operator('POST', 'captcha/policies', 'Set the captcha policy of a product and scene', {
    body: { pid: s(64), scene: s(64), policy: s(16) },
    status: 204,
  }),
  clearCaptchaPolicy: operator('POST', 'captcha/policies/clear', 'Remove an operator policy (configuration applies)', {
    body: { pid: s(64), scene: s(64) },
    status: 204,
  }),
  monitorErrorGroups: operator('GET', 'monitor/error-groups', 'JS errors by message: count, pages, last seen', {
    query: windowQuery,
  }),
  monitorApiCodes: operator('GET', 'monitor/api-codes', 'API outcomes per path and code (601–604, HTTP codes)', {
    query: windowQuery,
  }),
  monitorVitalsSeries: operator('GET', 'monitor/vitals-series', 'Web-vitals p75 per hour or day', {
    query: { ...windowQuery, bucket: opt(s(8)) },
  }),
} as const;

/** Captcha policies an operator may set; `risk` challenges only suspicious attempts. */
export const CAPTCHA_POLICIES = ['never', 'always', 'risk'] as const;
export type CaptchaPolicyName = (typeof CAPTCHA_POLICIES)[number];

export interface CaptchaVendorState {
  name: 'GEETEST' | 'TENCENT' | 'NETEASE' | 'NEXTDATA' | 'ALIYUN';
  configured: boolean;
  /** Public identifiers (app ids, endpoints): safe to show. */
  public: Record<string, string>;
  /** Secret names → whether they are set. Secret values never leave the server. */
  secrets: Record<string, boolean>;
}

export interface CaptchaSettings {
  /** Operator-set policies (they win over configuration). */
  policies: { pid: string; scene: string; policy: CaptchaPolicyName }[];
  /** Policies from CAPTCHA_POLICY, `pid:scene` → policy. */
  configured: Record<string, CaptchaPolicyName>;
  /** Provider per product (`*` for the rest), from CAPTCHA_PROVIDER. */
  providers: Record<string, string>;
  vendors: CaptchaVendorState[];
}

export interface ErrorGroup {
  message: string;
  count: number;
  pages: number;
  last_seen: number;
}
export interface ApiCodeCount {
  path: string;
  code: number;
  business: boolean;
  count: number;
}
export interface VitalPoint {
  name: string;
  bucket: number;
  count: number;
  p75: number;
}

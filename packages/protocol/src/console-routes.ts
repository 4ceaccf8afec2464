/**
 * The operator console's calls beyond users and agreements: captcha policy, provider and vendor keys
 * per product and scene, what the audit log answers, and the monitoring figures the dashboards draw (error groups with last seen, API outcome codes per
 * path, web-vitals p75 per time bucket). Operators only; spread into `adminRoutes`.
 */
import { int, MS_RANGE, opt, s } from './route-fields.ts';
import type { Method, RouteSpec } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
export const operator = <const E extends Partial<RouteSpec>>(method: Method, path: string, summary: string, extra: E) =>
  ({ method, path: `/admin/${path}`, host: 'tiger', auth: 'operator', summary, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: 'operator'; summary: string; status: 200 },
    keyof E
  > &
    E;

/** A product and a time window in unix ms (default: the 7 days up to now). */
const windowQuery = {
  product: s(64),
  from: opt({ ...int(), ...MS_RANGE }),
  to: opt({ ...int(), ...MS_RANGE }),
} as const;

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
  setCaptchaProvider: operator(
    'POST',
    'captcha/providers',
    'Choose the captcha provider of a product (or * for the rest)',
    {
      body: { pid: s(64), provider: s(16) },
      status: 204,
    },
  ),
  clearCaptchaProvider: operator(
    'POST',
    'captcha/providers/clear',
    "Remove a product's operator-chosen provider (configuration applies)",
    { body: { pid: s(64) }, status: 204 },
  ),
  setCaptchaVendorKeys: operator(
    'POST',
    'captcha/vendors/keys',
    "Set some of a vendor's keys and endpoints over the configured ones (secrets are write-only)",
    {
      body: {
        vendor: s(16),
        values: { type: 'any', required: true },
        // An endpoint outside the vendor's documented hosts is refused unless marked custom.
        custom_endpoint: { type: 'boolean', required: false },
      },
      status: 204,
    },
  ),
  clearCaptchaVendorKeys: operator(
    'POST',
    'captcha/vendors/keys/clear',
    "Remove a vendor's console-set keys (all, or the named fields): configuration applies again",
    { body: { vendor: s(16), fields: { type: 'string[]', required: false, maxLength: 16 } }, status: 204 },
  ),
  getOauthSettings: operator(
    'GET',
    'oauth',
    "Per product: whether WeChat/QQ code sign-in and bind are accepted without EduPass's state",
    {},
  ),
  setOauthWithoutState: operator(
    'POST',
    'oauth/without-state',
    "Accept (or refuse) a product's WeChat/QQ code steps without EduPass's state, over configuration",
    { body: { pid: s(64), enabled: { type: 'boolean', required: true } }, status: 204 },
  ),
  clearOauthWithoutState: operator(
    'POST',
    'oauth/without-state/clear',
    "Remove a product's console choice (OAUTH_WITHOUT_STATE applies)",
    { body: { pid: s(64) }, status: 204 },
  ),
  listSigningKeys: operator('GET', 'signing-keys', 'The keys that sign access tokens, and where each stands', {}),
  rotateSigningKey: operator(
    'POST',
    'signing-keys/rotate',
    'Add the next signing key: published now, signing after the publication delay (or at once with now)',
    { body: { now: { type: 'boolean', required: false } } },
  ),
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

/** The challenges a product can be given: EduPass's own slide puzzle, or a vendor's. */
export const CAPTCHA_PROVIDERS = ['SLIDE', 'GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN'] as const;
export type CaptchaProviderName = (typeof CAPTCHA_PROVIDERS)[number];
export type CaptchaVendorName = Exclude<CaptchaProviderName, 'SLIDE'>;

const isOneOf = <T extends string>(names: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (names as readonly string[]).includes(value);

/** Whether `value` is a captcha policy name (e.g. read from an answer or a setting). */
export const isCaptchaPolicy = (value: unknown): value is CaptchaPolicyName => isOneOf(CAPTCHA_POLICIES, value);
/** Whether `value` is a challenge provider name. */
export const isCaptchaProvider = (value: unknown): value is CaptchaProviderName => isOneOf(CAPTCHA_PROVIDERS, value);

/** Where a vendor setting in effect comes from. */
export type CaptchaKeySource = 'console' | 'environment' | 'default';

export interface CaptchaVendorField {
  /** The field name the keys calls take, e.g. `appId`. */
  name: string;
  /** The environment variable that sets it, e.g. `TENCENT_CAPTCHA_APP_ID`. */
  env: string;
  /** Write-only: its value never leaves the server, only `source`. */
  secret: boolean;
  /** Must be an http or https URL. */
  url: boolean;
  /** The value in effect; public fields only, never a secret's. */
  value?: string;
  /** Where the value in effect comes from; null when it is not set. */
  source: CaptchaKeySource | null;
  /** Set in the console but no longer readable (the server secret changed): enter it again. */
  unreadable?: boolean;
}

export interface CaptchaVendorState {
  name: CaptchaVendorName;
  /** Every field it needs is set (console over environment): it can be chosen as a provider. */
  configured: boolean;
  /** Fields still to set before it can be chosen. */
  missing: string[];
  fields: CaptchaVendorField[];
}

/** A product's provider: the operator's choice over configuration, most specific product first. */
export interface CaptchaProviderChoice {
  /** A product, or `*` for every product without its own. */
  pid: string;
  /** Chosen in the console, if any. */
  operator: CaptchaProviderName | null;
  /** From CAPTCHA_PROVIDER for exactly this pid, if any. */
  configured: CaptchaProviderName | null;
  /** What the rule service gives this product now. */
  effective: CaptchaProviderName;
}

export interface CaptchaSettings {
  /** Operator-set policies (they win over configuration). */
  policies: { pid: string; scene: string; policy: CaptchaPolicyName }[];
  /** Policies from CAPTCHA_POLICY, `pid:scene` → policy. */
  configured: Record<string, CaptchaPolicyName>;
  /** `*`, every known product, and any product with a provider of its own. */
  providers: CaptchaProviderChoice[];
  vendors: CaptchaVendorState[];
  /** The thresholds of the `risk` policy in effect (CAPTCHA_RISK_*; read-only); absent from older servers. */
  risk?: CaptchaRiskThresholds;
}

/** When `risk` starts challenging: counts within `windowSeconds`. */
export interface CaptchaRiskThresholds {
  windowSeconds: number;
  /** Failed captcha checks of one identity or device. */
  identityFailures: number;
  /** Password sign-ins of one account without a passed challenge since its last success. */
  loginAttempts: number;
  /** Failed captcha checks from one IP. */
  ipFailures: number;
  /** Wrong passwords from one IP. */
  ipLoginFailures: number;
  /** Code sends and new third-party accounts from one IP without a passed challenge. */
  ipSends: number;
  /** Rule requests for one identity. */
  ruleRequests: number;
  /** What clients that cannot run SLIDE get when challenged: a vendor, or NONE (refused). */
  fallbackRule: string;
}

/** A product's choice of WeChat/QQ code steps without EduPass's state (off unless turned on). */
export interface OauthStateSetting {
  pid: string;
  /** Set in the console, if any (it wins). */
  operator: boolean | null;
  /** From OAUTH_WITHOUT_STATE (the pid or `*`). */
  configured: boolean;
  /** What the code steps do now. */
  effective: boolean;
}

/** A key that signs access tokens (`GET /admin/signing-keys`); times in unix ms. */
export interface SigningKeyInfo {
  generation: number;
  kid: string;
  alg: string;
  /** next: published, not signing yet; signing; retiring: published until its last token expires; expired. */
  state: 'next' | 'signing' | 'retiring' | 'expired';
  created_at: number;
  signs_from: number;
  published_until: number | null;
}

/** What the audit log records; answers may carry others (a newer server), shown as they are. */
export const AUDIT_ACTIONS = [
  'user.block',
  'user.unblock',
  'user.sessions.revoke',
  'user.second-factor.reset',
  'agreement.publish',
  'captcha.policy.set',
  'captcha.policy.clear',
  'captcha.provider.set',
  'captcha.provider.clear',
  'captcha.vendor.set',
  'captcha.vendor.clear',
  'oauth.without-state.set',
  'oauth.without-state.clear',
  'signing-key.rotate',
  'application.add',
  'application.secret.rotate',
  'application.remove',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One entry of `GET /admin/audit`, with who the operator is now (empty when the account is gone). */
export interface AuditEntry {
  id: number;
  operator_id: number;
  operator_phone: string;
  operator_name: string;
  action: AuditAction | (string & {});
  target: string;
  /** What changed; never a secret's value. */
  detail: string;
  at: number;
}

export interface OperatorSummary {
  id: number;
  phone: string;
  name: string;
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

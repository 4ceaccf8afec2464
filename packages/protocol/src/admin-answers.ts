/**
 * What the operator console's calls answer: the response schemas of the admin routes, and through
 * `Answer<…>` the types console-routes.ts exports (CaptchaSettings, AuditEntry, …).
 */
import { boolean, integer, list, nullable, number, object, oneOf, record, text } from './answer-schema.ts';
import { CAPTCHA_KEY_SOURCES, CAPTCHA_POLICIES, CAPTCHA_PROVIDERS, type CaptchaVendorName } from './captcha-choices.ts';

// Users

const userRow = object({
  id: integer(),
  phone: nullable(text()),
  email: nullable(text()),
  username: nullable(text()),
  nickname: nullable(text()),
  avatar_url: text(),
  role: text(),
  blocked: boolean(),
  blocked_at: nullable(integer()),
  created_at: integer(),
  /** Under 18: the row shows no phone, e-mail, username, nickname or picture (open the user page with a reason). */
  minor: boolean(),
});

/** `GET /admin/users`: a page of users; `next_cursor` is there while more follow. */
export const userPageAnswer = object({ items: list(userRow) }, { next_cursor: integer() });

/** `GET /admin/users/:id`: the user, how they sign in, what they signed, their sessions. */
export const userDetailAnswer = object({
  user: object({
    id: integer(),
    nickname: text(),
    avatar_url: text(),
    fullname: text(),
    role: text(),
    blocked: boolean(),
    blocked_at: nullable(integer()),
    created_at: integer(),
    /** Under 18: reading this needed a reason (and an approval where required), kept in the access log. */
    minor: boolean(),
  }),
  identities: object({
    phone: text(),
    email: text(),
    username: text(),
    has_password: boolean(),
    wechat: nullable(text()),
    qq: nullable(text()),
  }),
  agreements: list(object({ id: integer(), code: text(), title: text(), version: integer(), signed_at: integer() })),
  sessions: list(
    object({
      id: text(),
      live: boolean(),
      created_at: integer(),
      method: text(),
      ip: text(),
      user_agent: text(),
      revoked_at: nullable(integer()),
    }),
  ),
});

/** Every version of an agreement, with its text, as operators publish them. */
/** One version of an agreement: `title` and `content` in its first language, `texts` in each it has. */
export const agreementVersionAnswer = object({
  id: integer(),
  code: text(),
  title: text(),
  version: integer(),
  url: text(),
  content: text(),
  texts: list(object({ lang: text(), title: text(), content: text() })),
  effective_at: integer(),
  created_at: integer(),
});

// Audit

/** One entry of `GET /admin/audit`, with who the operator is now (empty when the account is gone). */
export const auditEntryAnswer = object({
  id: integer(),
  operator_id: integer(),
  operator_phone: text(),
  operator_name: text(),
  /** An AuditAction, or one a newer server records. */
  action: text(),
  target: text(),
  /** What changed; never a secret's value. */
  detail: text(),
  at: integer(),
});

/**
 * An export of the audit log (`log: audit`) or of the log of reads of people's records (`log: reads`),
 * as CSV (UTF-8, header line first): the auditor's own rows left out, the export itself audited.
 */
export const auditExportAnswer = object({ log: text(), rows: integer(), csv: text() });

export const operatorSummaryAnswer = object({ id: integer(), phone: text(), name: text() });

/** The signed-in operator's duties (operator-duties.ts): what the console shows them. */
export const operatorSelfAnswer = object({
  id: integer(),
  duties: list(oneOf('system', 'security', 'auditor')),
  /** The staff password policy asks for a new password before anything else. */
  password_expired: boolean(),
  /** Minutes without a call after which the server ends the session (0: never): the console warns before. */
  idle_minutes: integer(),
});

// Captcha settings

const policyName = oneOf(...CAPTCHA_POLICIES);
const providerName = oneOf(...CAPTCHA_PROVIDERS);

export const captchaVendorFieldAnswer = object(
  {
    /** The field name the keys calls take, e.g. `appId`. */
    name: text(),
    /** The environment variable that sets it, e.g. `TENCENT_CAPTCHA_APP_ID`. */
    env: text(),
    /** Write-only: its value never leaves the server, only `source`. */
    secret: boolean(),
    /** Must be an http or https URL. */
    url: boolean(),
    /** Where the value in effect comes from; null when it is not set. */
    source: nullable(oneOf(...CAPTCHA_KEY_SOURCES)),
  },
  {
    /** The value in effect; public fields only, never a secret's. */
    value: text(),
    /** Set in the console but no longer readable (the keyring was reset): enter it again. */
    unreadable: boolean(),
  },
);

export const captchaVendorStateAnswer = object({
  name: oneOf(...CAPTCHA_PROVIDERS.filter((name): name is CaptchaVendorName => name !== 'SLIDE')),
  /** Every field it needs is set (console over environment): it can be chosen as a provider. */
  configured: boolean(),
  /** Fields still to set before it can be chosen. */
  missing: list(text()),
  fields: list(captchaVendorFieldAnswer),
});

/** A product's provider: the operator's choice over configuration, most specific product first. */
export const captchaProviderChoiceAnswer = object({
  /** A product, or `*` for every product without its own. */
  pid: text(),
  /** Chosen in the console, if any. */
  operator: nullable(providerName),
  /** From CAPTCHA_PROVIDER for exactly this pid, if any. */
  configured: nullable(providerName),
  /** What the rule service gives this product now. */
  effective: providerName,
});

/** When `risk` starts challenging: counts within `windowSeconds`. */
export const captchaRiskAnswer = object({
  windowSeconds: integer(),
  /** Failed captcha checks of one identity or device. */
  identityFailures: integer(),
  /** Password sign-ins of one account without a passed challenge since its last success. */
  loginAttempts: integer(),
  /** Failed captcha checks from one IP. */
  ipFailures: integer(),
  /** Wrong passwords from one IP. */
  ipLoginFailures: integer(),
  /** Code sends and new third-party accounts from one IP without a passed challenge. */
  ipSends: integer(),
  /** Rule requests for one identity. */
  ruleRequests: integer(),
  /** What clients that cannot run SLIDE get when challenged: a vendor, or NONE (refused). */
  fallbackRule: text(),
});

export const captchaSettingsAnswer = object(
  {
    /** Operator-set policies (they win over configuration). */
    policies: list(object({ pid: text(), scene: text(), policy: policyName })),
    /** Policies from CAPTCHA_POLICY, `pid:scene` → policy. */
    configured: record(policyName),
    /** `*`, every known product, and any product with a provider of its own. */
    providers: list(captchaProviderChoiceAnswer),
    vendors: list(captchaVendorStateAnswer),
  },
  {
    /** The thresholds of the `risk` policy in effect (CAPTCHA_RISK_*; read-only); absent from older servers. */
    risk: captchaRiskAnswer,
  },
);

/** A product's choice of WeChat/QQ code steps without EduPass's state (off unless turned on). */
export const oauthStateSettingAnswer = object({
  pid: text(),
  /** Set in the console, if any (it wins). */
  operator: nullable(boolean()),
  /** From OAUTH_WITHOUT_STATE (the pid or `*`). */
  configured: boolean(),
  /** What the code steps do now. */
  effective: boolean(),
});

// Usage and monitoring figures

export const errorGroupAnswer = object({ message: text(), count: integer(), pages: integer(), last_seen: integer() });
export const apiCodeCountAnswer = object({ path: text(), code: integer(), business: boolean(), count: integer() });
export const vitalPointAnswer = object({ name: text(), bucket: integer(), count: integer(), p75: number() });

/** `GET /admin/usage/events`: events per key per bucket (its start, unix ms). */
export const eventCountsAnswer = list(object({ key: text(), bucket: integer(), count: integer() }));
export const uniquesAnswer = object({ devices: integer(), users: integer(), events: integer() });
/** Milliseconds at each percentile; null when no timed event is in the window. */
export const durationsAnswer = object({
  key: text(),
  count: integer(),
  p50: nullable(number()),
  p75: nullable(number()),
  p90: nullable(number()),
  p99: nullable(number()),
});
export const errorCountsAnswer = list(object({ message: text(), count: integer() }));
/** Successes arrive sampled, so calls are estimated (failures + successes × the sample rate). */
export const apiFailureRatesAnswer = list(
  object({
    path: text(),
    failures: integer(),
    business_errors: integer(),
    estimated_calls: integer(),
    failure_rate: number(),
  }),
);
export const vitalsP75Answer = list(object({ name: text(), count: integer(), p75: nullable(number()) }));

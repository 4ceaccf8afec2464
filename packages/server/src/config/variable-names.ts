/**
 * Names in the environment that look meant for EduPass but that it never reads: an unknown
 * `EDUPASS_*` name, or a near miss of a name it reads (`DATABSE_URL`). Without this warning a typo
 * starts the server silently on the default (an SQLite file instead of PostgreSQL).
 */
import type { Env } from './readers.ts';
import { RETIRED_ROSTER_VARIABLES } from './roster-config.ts';

/** Every name EduPass reads somewhere, including those read only when another is set. */
export const KNOWN_VARIABLES: readonly string[] = [
  'ACCESS_LOG_RETENTION_DAYS',
  'ACCESS_TOKEN_TTL',
  'ACCOUNT_DELETION_GRACE_DAYS',
  'AUDIT_RETENTION_DAYS',
  'AVATAR_DIR',
  'AVATAR_PUBLIC_URL',
  'AVATAR_S3_ACCESS_KEY_ID',
  'AVATAR_S3_BUCKET',
  'AVATAR_S3_ENDPOINT',
  'AVATAR_S3_REGION',
  'AVATAR_S3_SECRET_ACCESS_KEY',
  'CAPTCHA_ALLOW_VENDOR_FALLBACK',
  'CAPTCHA_CHALLENGE_TTL',
  'CAPTCHA_FALLBACK_RULE',
  'CAPTCHA_POLICY',
  'CAPTCHA_PROVIDER',
  'CAPTCHA_RISK_FAILURES',
  'CAPTCHA_RISK_IP_FAILURES',
  'CAPTCHA_RISK_IP_LOGIN_FAILURES',
  'CAPTCHA_RISK_IP_REFUSALS',
  'CAPTCHA_RISK_IP_SENDS',
  'CAPTCHA_RISK_LOGIN_FAILURES',
  'CAPTCHA_RISK_PHONE_SENDS',
  'CAPTCHA_RISK_RULE_REQUESTS',
  'CAPTCHA_RISK_WINDOW',
  'CAPTCHA_SLIDE_IP_PER_MINUTE',
  'CAPTCHA_SLIDE_TOLERANCE',
  'CAPTCHA_TICKET_TTL',
  'CAPTCHA_VENDOR_TIMEOUT',
  'CODE_DAILY_LIMIT',
  'CODE_IP_HOURLY_LIMIT',
  'CODE_IP_REFUSAL_HOURLY_LIMIT',
  'CODE_MAX_ATTEMPTS',
  'CODE_RESEND_INTERVAL',
  'CODE_TTL',
  'CONSENT_EVIDENCE_RETENTION_YEARS',
  'COOKIE_DOMAIN',
  'COOKIE_SECURE',
  'CORS_ORIGINS',
  'DATA_REQUEST_DUE_WORKING_DAYS',
  'DATABASE_POOL_SIZE',
  'DATABASE_PREPARED_STATEMENTS',
  'DATABASE_READ_URL',
  'DATABASE_URL',
  'DATA_EXPORT_LINK_HOURS',
  'DEV_ROUTES',
  'EDUPASS_ENV_FILE',
  'EDU_CLASS_EXTRA_GRADES',
  'EDU_CONSENT_PENDING_DAYS',
  'EDU_DINGTALK_API_URL',
  'EDU_DINGTALK_JSAPI_URL',
  'EDU_DINGTALK_LOGIN_URL',
  'EDU_DINGTALK_OPENAPI_URL',
  'EDU_GUARDIAN_WAIT_DAYS',
  'EDU_MINOR_CURFEW',
  'EDU_MINOR_MINUTES_16_17',
  'EDU_MINOR_MINUTES_8_15',
  'EDU_MINOR_MINUTES_UNDER_8',
  'EDU_PUPIL_PASSWORD_CHANGE',
  'EDU_ROSTER_HOLD_PERCENT',
  'EDU_ROSTER_JOB_HOURS',
  'EDU_SCHOOL_DAILY_BATCHES',
  'EDU_TEACHER_DAILY_BATCHES',
  'EDU_WECOM_API_URL',
  'EDU_WECOM_LOGIN_URL',
  'EDU_WECOM_OAUTH_URL',
  'HOST',
  'INGEST_IP_PER_MINUTE',
  'INGEST_PRODUCT_PER_MINUTE',
  'INGEST_QUEUE_ROWS',
  'INTROSPECTION_SECRETS',
  'JWT_SECRET',
  'LOGIN_LOCK_AFTER',
  'LOGIN_LOCK_SECONDS',
  'LOGIN_SLOWDOWN_AFTER',
  'LOGIN_SLOWDOWN_MS',
  'LOG_LEVEL',
  'METRICS_HOST',
  'METRICS_PORT',
  'METRICS_TOKEN',
  'NODE_ENV',
  'OAUTH_TICKET_TTL',
  'OAUTH_TIMEOUT_MS',
  'OAUTH_WITHOUT_STATE',
  'OIDC_RESOURCES',
  'OPERATOR_MFA',
  'PORT',
  'PRODUCTS',
  'PUBLIC_URL',
  'QQ_UNIONID',
  'RATE_LIMIT_IPV6_PREFIX',
  'REALNAME_ACCESS_KEY_ID',
  'REALNAME_ACCESS_KEY_SECRET',
  'REALNAME_ENDPOINT',
  'REALNAME_PROVIDER',
  'REALNAME_REGION',
  'REALNAME_TIMEOUT_MS',
  'REDIS_URL',
  'REFRESH_REUSE_GRACE',
  'REFRESH_TOKEN_TTL',
  'SEAL_ALL_RECORDS',
  'SECOND_FACTOR_CHALLENGE_TTL',
  'SECOND_FACTOR_PRODUCTS',
  'SECURITY_EVENT_RETENTION_DAYS',
  'SESSION_CACHE_SECONDS',
  'SESSION_MAX_AGE',
  'SESSION_TOKEN_TTL',
  'SETTINGS_CACHE_SECONDS',
  'SITE_LOGO_URL',
  'SITE_NAME',
  'SMS_ENDPOINT',
  'SMS_PROVIDER',
  'SMS_REGION',
  'SMS_TEMPLATES',
  'SMS_TEMPLATE_PARAMS',
  'SMS_TIMEOUT_MS',
  'SMS_VOICE_APP_ID',
  'SMS_VOICE_ENDPOINT',
  'SMS_VOICE_SHOW_NUMBER',
  'SMS_VOICE_TEMPLATE',
  'SMTP_FROM',
  'SMTP_HOST',
  'SMTP_PASSWORD',
  'SMTP_PORT',
  'SMTP_SECURE',
  'SMTP_USER',
  'STAFF_ACCESS_APPROVAL',
  'STAFF_ACCESS_APPROVAL_HOURS',
  'STAFF_IDLE_MINUTES',
  'STAFF_PASSWORD_CLASSES',
  'STAFF_PASSWORD_HISTORY',
  'STAFF_PASSWORD_MAX_AGE_DAYS',
  'STAFF_PASSWORD_MIN_LENGTH',
  'STEP_UP_SECONDS',
  'TRUST_PROXY',
  'USAGE_DATABASE_URL',
  'USAGE_RETENTION_DAYS',
  'USAGE_SPOOL_DIR',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_DISABLED_KEEP_DAYS',
  'WEBHOOK_DISABLE_AFTER',
  'WEBHOOK_POLL_MS',
  'WEBHOOK_TIMEOUT_MS',
  'WEB_ROOT',
];

/**
 * Names EduPass once read and reads no more, with what holds instead. One left in the environment
 * is warned about at start, with its fix: ignoring it silently would surprise whoever set it.
 */
export const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  ...RETIRED_ROSTER_VARIABLES,
};

/** Edits (insert, delete, substitute, swap two neighbours) from one name to the other, up to `limit` + 1. */
export const editDistance = (a: string, b: string, limit = 2): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
};

/** The test suite's own settings (EDUPASS_TEST_PG_URL …): not the server's, and not a typo. */
const TEST_SUITE_PREFIX = 'EDUPASS_TEST_';

/** Shorter names (HOST, PORT) are too close to everyone else's variables to guess about. */
const MIN_GUESSED_LENGTH = 6;

/**
 * One warning (with its fix) per name that looks meant for EduPass but is not one it reads, and per
 * retired name still set.
 */
export const unknownVariableWarnings = (env: Env, read: ReadonlySet<string>): string[] => {
  const known = new Set([...KNOWN_VARIABLES, ...read]);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (known.has(name) || env[name] === undefined) continue;
    const retired = RETIRED_VARIABLES[name];
    if (retired !== undefined) {
      if (env[name] !== '') warnings.push(`${name}=${env[name]} is no longer read: ${retired}. Fix: remove ${name}.`);
      continue;
    }
    const upper = name.toUpperCase();
    const nearest =
      name.length >= MIN_GUESSED_LENGTH
        ? [...known].find((candidate) => candidate === upper || editDistance(upper, candidate) <= 2)
        : undefined;
    if (nearest !== undefined) {
      warnings.push(`${name} is not a variable EduPass reads: did you mean ${nearest}? Fix: rename it to ${nearest}.`);
    } else if (upper.startsWith('EDUPASS_') && !upper.startsWith(TEST_SUITE_PREFIX)) {
      warnings.push(`${name} is not a variable EduPass reads (it is ignored). Fix: remove it, or see docs/deploy.md.`);
    }
  }
  return warnings;
};

/** The environment, recording each name the configuration reads (names built at run time included). */
export const recordingReads = (env: Env) => {
  const read = new Set<string>();
  const recorded = new Proxy(env, {
    get: (target, name) => {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
  });
  return { env: recorded, read };
};

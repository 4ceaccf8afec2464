/**
 * The one place that reads configuration. Every variable is documented here and validated at start;
 * a bad value stops the server with a message naming the variable and the fix.
 */

import { DAY_SECONDS } from '@edupass/protocol';
import { ARGON2_OPTIONS, type PasswordHashing } from '../services/passwords/argon2.ts';
import { type AvatarConfig, readAvatarConfig } from './avatar-config.ts';
import { type CaptchaConfig, readCaptchaConfig } from './captcha-config.ts';
import { readSmsConfig, readSmtpConfig, type SmsConfig, type SmtpConfig } from './delivery-config.ts';
import { type IdentityConfig, readIdentityConfig } from './identity-config.ts';
import { type IntrospectionConfig, readIntrospectionConfig } from './introspection-config.ts';
import { type MinorModeConfig, readMinorModeConfig } from './minor-mode-config.ts';
import { type OauthAppConfig, readOauthConfig } from './oauth-config.ts';
import { readTrustProxy, type TrustProxy } from './proxy-config.ts';
import { type Env, type Readers, readers } from './readers.ts';
import { type RealnameConfig, readRealnameConfig } from './realname-config.ts';
import { type RetentionConfig, readRetentionConfig } from './retention-config.ts';
import { type RosterConfig, readRosterConfig } from './roster-config.ts';
import { readSecondFactorConfig, type SecondFactorConfig } from './second-factor-config.ts';
import { readSecretsConfig, type SecretsConfig } from './secrets-config.ts';
import { readSiteConfig, type SiteConfig } from './site-config.ts';
import { readStaffIdentityConfig, type StaffIdentityConfig } from './staff-identity-config.ts';
import { readUsageStoreConfig, type UsageStoreConfig } from './usage-store-config.ts';
import { editDistance, recordingReads, unknownVariableWarnings } from './variable-names.ts';
import { readWebhookConfig, type WebhookConfig } from './webhook-config.ts';

export interface Config
  extends SecretsConfig,
    UsageStoreConfig,
    IntrospectionConfig,
    SecondFactorConfig,
    IdentityConfig,
    MinorModeConfig,
    RetentionConfig,
    StaffIdentityConfig,
    RosterConfig {
  port: number;
  /** Development: loopback (127.0.0.1) unless HOST says otherwise; production: 0.0.0.0. */
  host: string;
  /** A file path for embedded SQLite, or a postgres:// URL. */
  databaseUrl: string;
  /** Most PostgreSQL connections each process opens. */
  databasePoolSize: number;
  /** PostgreSQL statements prepared once per connection (store/prepared-statements.ts); off behind a pooler that drops them. */
  databasePreparedStatements: boolean;
  /** A read-only copy (a PostgreSQL replica) for the console's dashboard queries; else DATABASE_URL. */
  databaseReadUrl: string | undefined;
  /** When set, rate-limit counters live in Redis and session-cache forgets go through it, so several processes agree. */
  redisUrl: string | undefined;
  publicUrl: string;
  production: boolean;
  /**
   * `/dev/outbox` and the development WeChat/QQ: on in development when listening on loopback only,
   * or with DEV_ROUTES=1 (logged loudly); never in production.
   */
  devRoutes: boolean;
  /**
   * DEV_ROUTES=1: the development routes answer every request. Otherwise they answer only requests
   * made on this machine (routes/dev-scope.ts): a proxy on the same host would pass them on to anyone.
   */
  devRoutesForAnyone: boolean;
  accessTokenTtlSeconds: number;
  /** Lifetime of the plain-string `auth.token` and `authorization` cookie given to clients without Auth-Version. */
  sessionTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A refresh token presented again within this window gets the same successor instead of revoking. */
  refreshGraceSeconds: number;
  /** Absolute age of a session: past it a refresh fails (10000001) and the user signs in again. */
  sessionMaxAgeSeconds: number;
  /**
   * How long a live session is remembered in a process. Changes made through this process (or any
   * process, with REDIS_URL) are seen at once; a change made by another process without Redis is
   * seen within this many seconds. 0 reads the session on every call.
   */
  sessionCacheSeconds: number;
  /** The same for the products' applications, webhook endpoints, captcha policies (store/settings-cache.ts). */
  settingsCacheSeconds: number;
  cookieDomain: string | undefined;
  cookieSecure: boolean;
  corsOrigins: string[];
  /** pid → product code. */
  products: Record<string, string>;
  codeTtlSeconds: number;
  /** How long a proof (a sign-in, a password or code given for step-up) lets takeover-prone changes through. */
  stepUpSeconds: number;
  codeMaxAttempts: number;
  codeResendSeconds: number;
  codeDailyLimit: number;
  /** Pupil batches (bulk creations) a day per teacher, and per school unless the console sets one. */
  eduTeacherDailyBatches: number;
  eduSchoolDailyBatches: number;
  /** New pupil accounts are asked to choose their own password at first sign-in. */
  eduPupilPasswordChange: boolean;
  /**
   * Grades beyond 一年级…高三 (1–12) a class may have: `kindergarten` (0, 幼儿园) and `adult` (13,
   * 大学/成人), from EDU_CLASS_EXTRA_GRADES; none by default (services/edu/family/age.ts).
   */
  eduClassExtraGrades: ExtraGrade[];
  /** Days an account under 14 may wait for a guardian's consent before the sweeper deletes it. */
  eduConsentPendingDays: number;
  /**
   * Days a guardian link waits for the child's guardians to approve or refuse it before it is approved
   * by itself (they are told when it is asked); also how long a first guardian who did not consent
   * waits before taking a copy of the child's data.
   */
  eduGuardianWaitDays: number;
  codeIpHourlyLimit: number;
  /** The bits of an IPv6 address that per-address limits count it by: its network (counted-address.ts). */
  rateLimitIpv6Prefix: number;
  /** Code sends from one IP per hour refused because the identity is not registered (or already is). */
  codeIpRefusalHourlyLimit: number;
  loginSlowdownAfter: number;
  loginLockAfter: number;
  loginLockSeconds: number;
  /** Milliseconds added per failed login past the slow-down threshold (doubling, capped at 8×). */
  loginSlowdownMs: number;
  /**
   * argon2id's cost for new password hashes. Always ARGON2_OPTIONS from the environment: no variable
   * sets it; only tests pass a cheaper one (test-kit TEST_PASSWORD_HASHING). A check reads the cost
   * from the stored hash, so hashes of either cost verify.
   */
  passwordHashing: PasswordHashing;
  /** Proxies allowed to name the client in X-Forwarded-For (proxy-config.ts). */
  trustProxy: TrustProxy;
  logLevel: string;
  /** A second listener serving only /metrics (Prometheus). */
  metricsPort: number | undefined;
  /** The address that listener binds: loopback unless METRICS_HOST says otherwise. */
  metricsHost: string;
  /** Serves /metrics on the main port to `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Built web client to serve at `/`, when present. */
  webRoot: string | undefined;
  /** The site's name and logo on the web client's pages (site-config.ts). */
  site: SiteConfig;
  /** WeChat and QQ sign-in (oauth-config.ts). */
  wechat: OauthAppConfig;
  qq: OauthAppConfig & { unionid: boolean };
  oauthTimeoutMs: number;
  oauthTicketTtlSeconds: number;
  /** Products (pids, `*` for all) whose WeChat/QQ code steps may come without a state (OAUTH_WITHOUT_STATE). */
  oauthWithoutState: string[];
  /** Outgoing e-mail and SMS (delivery-config.ts); unset: codes land in the dev outbox. */
  smtp: SmtpConfig | undefined;
  sms: SmsConfig | undefined;
  /** The guardian's adult check through a real-name vendor; undefined: off (realname-config.ts). */
  realname: RealnameConfig | undefined;
  /** Usage events and monitor beacons older than this many days are deleted (hourly sweep). */
  usageRetentionDays: number;
  /** Days a deleted account stays frozen, and can be kept, before it is erased; 0 erases at once. */
  accountDeletionGraceDays: number;
  /** Seal every account's phone, e-mail, name and birth month at rest, not only children's (store/sealed-records.ts). */
  sealAllRecords: boolean;
  /** Hours a data export's zip is kept, and its single-use link works (hourly sweep). */
  dataExportLinkHours: number;
  /**
   * Operators reading a minor's record need another operator's approval (STAFF_ACCESS_APPROVAL=1), valid
   * for `staffAccessApprovalHours`; a reason is needed either way (services/admin/staff-access.ts).
   */
  staffAccessApproval: boolean;
  staffAccessApprovalHours: number;
  /** Working days within which a data-rights request is due (services/account/data-requests.ts). */
  dataRequestDueWorkingDays: number;
  /** Webhook delivery: private targets, poll interval, timeout (webhook-config.ts). */
  webhooks: WebhookConfig;
  avatars: AvatarConfig;
  /** Rows waiting for the usage writer past which collectors answer 503 with Retry-After. */
  ingestQueueRows: number;
  /** Collector requests one IP may make per minute (a whole school shares one NAT address). */
  ingestIpPerMinute: number;
  /** Usage events and beacons one product may send per minute. */
  ingestProductPerMinute: number;
  /** Human verification: policies, providers, vendor keys (captcha-config.ts). */
  captcha: CaptchaConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const parseProducts = (raw: string, problems: string[]): Record<string, string> => {
  const products: Record<string, string> = {};
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [pid, code, ...rest] = entry.split(':');
    if (!pid || !code || rest.length > 0) {
      problems.push(
        `PRODUCTS entry "${entry}" must be pid:product_code. Fix: e.g. PRODUCTS=edupass:edupass,site2:site2`,
      );
      continue;
    }
    products[pid] = code;
  }
  if (Object.keys(products).length === 0)
    problems.push('PRODUCTS names no product. Fix: e.g. PRODUCTS=edupass:edupass');
  return products;
};

/** The log levels of the server's logger (pino). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The grades an operator may add to a class's grade list (EDU_CLASS_EXTRA_GRADES). */
export const EXTRA_GRADES = ['kindergarten', 'adult'] as const;
export type ExtraGrade = (typeof EXTRA_GRADES)[number];

const extraGradesOf = (raw: string | undefined, problems: string[]): ExtraGrade[] => {
  const words = (raw ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  const unknown = words.filter((w) => !(EXTRA_GRADES as readonly string[]).includes(w));
  if (unknown.length > 0) {
    problems.push(
      `EDU_CLASS_EXTRA_GRADES names ${unknown.join(', ')}; it takes kindergarten and/or adult. Fix: e.g. EDU_CLASS_EXTRA_GRADES=kindergarten, or unset it.`,
    );
  }
  return EXTRA_GRADES.filter((g) => words.includes(g));
};

const logLevelOf = (raw: string | undefined, problems: string[]): string => {
  if (raw === undefined) return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw;
  problems.push(`LOG_LEVEL="${raw}" must be one of ${LOG_LEVELS.join(', ')}. Fix: LOG_LEVEL=info, or unset it.`);
  return 'info';
};

export { DAY_SECONDS as DAY };

/** DATABASE_URL names PostgreSQL (else it is an SQLite file path). */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

export type { Readers };

/** 127.0.0.1 and the rest of 127/8, ::1, localhost: reachable from this machine only. */
export const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

/**
 * Development routes hand out live codes: on by default only where nobody else can reach them
 * (loopback); elsewhere only with DEV_ROUTES=1; never in production.
 */
const devRoutesFor = (env: Env, { bool }: Readers, problems: string[], production: boolean, host: string) => {
  const byDefault = !production && isLoopback(host);
  const wanted = bool('DEV_ROUTES', byDefault);
  if (production && wanted) {
    problems.push(
      'DEV_ROUTES=1 with NODE_ENV=production: development routes hand anyone every live code. Fix: unset DEV_ROUTES.',
    );
    return { devRoutes: false, devRoutesForAnyone: false };
  }
  const devRoutes = wanted && env.NODE_ENV !== 'production';
  // Asked for by name (DEV_ROUTES=1), they answer everyone; on by default, only this machine (Config).
  return { devRoutes, devRoutesForAnyone: devRoutes && (env.DEV_ROUTES ?? '') !== '' };
};

/** The values of NODE_ENV with a meaning; any other (`prodution`) would quietly start a development server. */
const NODE_ENVS = ['production', 'development', 'test'];

const checkNodeEnv = (raw: string | undefined, problems: string[]) => {
  if (raw === undefined || raw === '' || NODE_ENVS.includes(raw)) return;
  const fix = editDistance(raw.toLowerCase(), 'production') <= 3 ? 'NODE_ENV=production' : 'unset it';
  problems.push(`NODE_ENV="${raw}" must be one of ${NODE_ENVS.join(', ')}, or unset. Fix: ${fix}.`);
};

/**
 * The configuration, and a warning for each variable that looks meant for EduPass but is not one it
 * reads (config/variable-names.ts): the server starts, and logs them first.
 */
export const loadConfigWithWarnings = (env: Env = process.env): { config: Config; warnings: string[] } => {
  const { env: recorded, read } = recordingReads(env);
  const config = loadConfig(recorded);
  return { config, warnings: unknownVariableWarnings(env, read) };
};

export const loadConfig = (env: Env = process.env): Config => {
  const problems: string[] = [];
  const read = readers(env, problems);
  const { int, bool, str, url } = read;
  const port = int('PORT', 8080, 0, 65_535);
  checkNodeEnv(env.NODE_ENV, problems);
  const production = env.NODE_ENV === 'production';
  const publicUrl = url('PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']);
  const databaseUrl = str('DATABASE_URL') ?? './data/edupass.db';
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !isPostgresUrl(databaseUrl)) {
    problems.push(
      `DATABASE_URL="${databaseUrl}" must be a file path (SQLite) or a postgres:// URL. Fix: e.g. DATABASE_URL=./data/edupass.db or DATABASE_URL=postgres://user:password@host:5432/edupass`,
    );
  }
  const databaseReadUrl = str('DATABASE_READ_URL');
  if (databaseReadUrl !== undefined && isPostgresUrl(databaseReadUrl) !== isPostgresUrl(databaseUrl)) {
    problems.push(
      'DATABASE_READ_URL must name the same kind of database as DATABASE_URL (a replica of it). Fix: e.g. DATABASE_READ_URL=postgres://reader@replica:5432/edupass, or unset it.',
    );
  }
  const host = str('HOST') ?? (production ? '0.0.0.0' : '127.0.0.1');
  const { devRoutes, devRoutesForAnyone } = devRoutesFor(env, read, problems, production, host);
  const redisUrl = str('REDIS_URL');
  if (redisUrl !== undefined) url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  const config: Config = {
    port,
    host,
    databaseUrl,
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 1000),
    databasePreparedStatements: bool('DATABASE_PREPARED_STATEMENTS', true),
    databaseReadUrl,
    redisUrl,
    publicUrl,
    production,
    devRoutes,
    devRoutesForAnyone,
    ...readSecretsConfig(read, problems, production),
    ...readIntrospectionConfig(read, problems),
    ...readSecondFactorConfig(read, problems),
    ...readIdentityConfig(read, problems),
    ...readMinorModeConfig(read, problems),
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL', 900, 1, DAY_SECONDS),
    sessionTokenTtlSeconds: int('SESSION_TOKEN_TTL', 7 * DAY_SECONDS, 60, 365 * DAY_SECONDS),
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL', 30 * DAY_SECONDS, 60, 365 * DAY_SECONDS),
    refreshGraceSeconds: int('REFRESH_REUSE_GRACE', 10, 0, 300),
    sessionMaxAgeSeconds: int('SESSION_MAX_AGE', 60 * DAY_SECONDS, 300, 365 * DAY_SECONDS),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', 5, 0, 60),
    settingsCacheSeconds: int('SETTINGS_CACHE_SECONDS', 5, 0, 60),
    cookieDomain: str('COOKIE_DOMAIN'),
    cookieSecure: bool('COOKIE_SECURE', publicUrl.startsWith('https:')),
    corsOrigins: (str('CORS_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    products: parseProducts(str('PRODUCTS') ?? 'edupass:edupass', problems),
    codeTtlSeconds: int('CODE_TTL', 300, 30, 3600),
    stepUpSeconds: int('STEP_UP_SECONDS', 300, 30, DAY_SECONDS),
    codeMaxAttempts: int('CODE_MAX_ATTEMPTS', 5, 1, 20),
    codeResendSeconds: int('CODE_RESEND_INTERVAL', 60, 0, 3600),
    codeDailyLimit: int('CODE_DAILY_LIMIT', 10, 1, 1000),
    eduTeacherDailyBatches: int('EDU_TEACHER_DAILY_BATCHES', 5, 0, 10_000),
    eduSchoolDailyBatches: int('EDU_SCHOOL_DAILY_BATCHES', 50, 0, 100_000),
    eduPupilPasswordChange: bool('EDU_PUPIL_PASSWORD_CHANGE', true),
    eduClassExtraGrades: extraGradesOf(str('EDU_CLASS_EXTRA_GRADES'), problems),
    ...readRosterConfig(read),
    eduConsentPendingDays: int('EDU_CONSENT_PENDING_DAYS', 30, 1, 365),
    eduGuardianWaitDays: int('EDU_GUARDIAN_WAIT_DAYS', 7, 1, 90),
    codeIpHourlyLimit: int('CODE_IP_HOURLY_LIMIT', 300, 1, 100_000),
    codeIpRefusalHourlyLimit: int('CODE_IP_REFUSAL_HOURLY_LIMIT', 60, 1, 100_000),
    rateLimitIpv6Prefix: int('RATE_LIMIT_IPV6_PREFIX', 64, 32, 128),
    loginSlowdownAfter: int('LOGIN_SLOWDOWN_AFTER', 5, 1, 100),
    loginLockAfter: int('LOGIN_LOCK_AFTER', 10, 1, 1000),
    loginLockSeconds: int('LOGIN_LOCK_SECONDS', 900, 1, DAY_SECONDS),
    loginSlowdownMs: int('LOGIN_SLOWDOWN_MS', 250, 0, 10_000),
    passwordHashing: ARGON2_OPTIONS,
    trustProxy: readTrustProxy(env.TRUST_PROXY, problems),
    logLevel: logLevelOf(str('LOG_LEVEL'), problems),
    metricsPort: str('METRICS_PORT') === undefined ? undefined : int('METRICS_PORT', 9464, 1, 65_535),
    metricsHost: str('METRICS_HOST') ?? '127.0.0.1',
    metricsToken: str('METRICS_TOKEN'),
    webRoot: str('WEB_ROOT'),
    site: readSiteConfig(read, problems),
    ...readOauthConfig(env, read, problems, !devRoutes),
    smtp: readSmtpConfig(read, problems),
    sms: readSmsConfig(read, problems),
    ...readRealnameConfig(read, problems, production),
    usageRetentionDays: int('USAGE_RETENTION_DAYS', 90, 1, 3650),
    accountDeletionGraceDays: int('ACCOUNT_DELETION_GRACE_DAYS', 15, 0, 365),
    sealAllRecords: bool('SEAL_ALL_RECORDS', false),
    ...readRetentionConfig(read, problems),
    ...readStaffIdentityConfig(read),
    dataExportLinkHours: int('DATA_EXPORT_LINK_HOURS', 24, 1, 24 * 30),
    staffAccessApproval: bool('STAFF_ACCESS_APPROVAL', false),
    staffAccessApprovalHours: int('STAFF_ACCESS_APPROVAL_HOURS', 24, 1, 24 * 30),
    dataRequestDueWorkingDays: int('DATA_REQUEST_DUE_WORKING_DAYS', 15, 1, 60),
    ...readUsageStoreConfig(read, problems, databaseUrl, !isPostgresUrl(databaseUrl)),
    ingestQueueRows: int('INGEST_QUEUE_ROWS', 100_000, 1, 10_000_000),
    ingestIpPerMinute: int('INGEST_IP_PER_MINUTE', 30_000, 1, 100_000_000),
    ingestProductPerMinute: int('INGEST_PRODUCT_PER_MINUTE', 600_000, 1, 1_000_000_000),
    captcha: readCaptchaConfig(env, problems),
    webhooks: readWebhookConfig(read),
    avatars: readAvatarConfig(read, problems, { databaseUrl, sqlite: !isPostgresUrl(databaseUrl), publicUrl }),
  };
  if (config.metricsToken !== undefined && config.metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters. Fix: METRICS_TOKEN=$(openssl rand -hex 24)');
  }
  const { metricsPort, metricsHost, metricsToken } = config;
  if (production && metricsPort !== undefined && !isLoopback(metricsHost) && metricsToken === undefined) {
    problems.push(
      `METRICS_HOST=${metricsHost} would serve /metrics to anyone who reaches port ${metricsPort}. Fix: METRICS_TOKEN=$(openssl rand -hex 24) (Prometheus sends it as a bearer token), or leave METRICS_HOST unset (127.0.0.1).`,
    );
  }
  if (config.loginLockAfter < config.loginSlowdownAfter) {
    problems.push(
      `LOGIN_LOCK_AFTER=${config.loginLockAfter} must not be below LOGIN_SLOWDOWN_AFTER=${config.loginSlowdownAfter}. Fix: raise LOGIN_LOCK_AFTER or lower LOGIN_SLOWDOWN_AFTER.`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
};

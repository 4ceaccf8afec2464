/**
 * The one place that reads configuration. Every variable is documented here and validated at start;
 * a bad value stops the server with a message naming the variable and the fix.
 */
import { type CaptchaConfig, readCaptchaConfig } from './captcha-config.ts';
import { readSmsConfig, readSmtpConfig, type SmsConfig, type SmtpConfig } from './delivery-config.ts';
import { type OauthAppConfig, readOauthConfig } from './oauth-config.ts';

export interface Config {
  port: number;
  host: string;
  /** A file path for embedded SQLite, or a postgres:// URL. */
  databaseUrl: string;
  /** When set, rate-limit counters live in Redis and session-cache forgets go through it, so several processes agree. */
  redisUrl: string | undefined;
  publicUrl: string;
  production: boolean;
  /** HS256 secret for access tokens; generated and kept in the database when unset. */
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  /** Lifetime of the plain-string `auth.token` and `authorization` cookie given to clients without Auth-Version. */
  sessionTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A refresh token presented again within this window gets the same successor instead of revoking. */
  refreshGraceSeconds: number;
  /**
   * How long a live session is remembered in a process. Changes made through this process (or any
   * process, with REDIS_URL) are seen at once; a change made by another process without Redis is
   * seen within this many seconds. 0 reads the session on every call.
   */
  sessionCacheSeconds: number;
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
  codeIpHourlyLimit: number;
  loginSlowdownAfter: number;
  loginLockAfter: number;
  loginLockSeconds: number;
  /** Milliseconds added per failed login past the slow-down threshold (doubling, capped at 8×). */
  loginSlowdownMs: number;
  trustProxy: boolean;
  logLevel: string;
  /** Built web client to serve at `/`, when present. */
  webRoot: string | undefined;
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
  /** Usage events and monitor beacons older than this many days are deleted (hourly sweep). */
  usageRetentionDays: number;
  /** Human verification: policies, providers, vendor keys (captcha-config.ts). */
  captcha: CaptchaConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const readers = (env: Env, problems: string[]) => {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(
        `${name}="${raw}" must be a whole number from ${min} to ${max}. Fix: set ${name}=${fallback} or unset it.`,
      );
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name}="${raw}" must be true or false. Fix: set ${name}=${fallback} or unset it.`);
    return fallback;
  };
  const str = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name}="${raw}" must be a ${protocols.join(' or ')} URL. Fix: e.g. ${name}=${fallback}`);
      return fallback;
    }
  };
  return { int, bool, str, url };
};

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

export const DAY = 86_400;

/** DATABASE_URL names PostgreSQL (else it is an SQLite file path). */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

export type Readers = ReturnType<typeof readers>;

export const loadConfig = (env: Env = process.env): Config => {
  const problems: string[] = [];
  const read = readers(env, problems);
  const { int, bool, str, url } = read;
  const port = int('PORT', 8080, 0, 65_535);
  const production = env.NODE_ENV === 'production';
  const publicUrl = url('PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']);
  const databaseUrl = str('DATABASE_URL') ?? './data/edupass.db';
  if (/^[a-z]+:\/\//i.test(databaseUrl) && !isPostgresUrl(databaseUrl)) {
    problems.push(
      `DATABASE_URL="${databaseUrl}" must be a file path (SQLite) or a postgres:// URL. Fix: e.g. DATABASE_URL=./data/edupass.db or DATABASE_URL=postgres://user:password@host:5432/edupass`,
    );
  }
  const jwtSecret = str('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters. Fix: JWT_SECRET=$(openssl rand -base64 48)');
  }
  const redisUrl = str('REDIS_URL');
  if (redisUrl !== undefined) url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  const config: Config = {
    port,
    host: str('HOST') ?? '0.0.0.0',
    databaseUrl,
    redisUrl,
    publicUrl,
    production,
    jwtSecret,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL', 900, 1, DAY),
    sessionTokenTtlSeconds: int('SESSION_TOKEN_TTL', 7 * DAY, 60, 365 * DAY),
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL', 30 * DAY, 60, 365 * DAY),
    refreshGraceSeconds: int('REFRESH_REUSE_GRACE', 10, 0, 300),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', 5, 0, 60),
    cookieDomain: str('COOKIE_DOMAIN'),
    cookieSecure: bool('COOKIE_SECURE', publicUrl.startsWith('https:')),
    corsOrigins: (str('CORS_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    products: parseProducts(str('PRODUCTS') ?? 'edupass:edupass', problems),
    codeTtlSeconds: int('CODE_TTL', 300, 30, 3600),
    stepUpSeconds: int('STEP_UP_SECONDS', 300, 30, DAY),
    codeMaxAttempts: int('CODE_MAX_ATTEMPTS', 5, 1, 20),
    codeResendSeconds: int('CODE_RESEND_INTERVAL', 60, 0, 3600),
    codeDailyLimit: int('CODE_DAILY_LIMIT', 10, 1, 1000),
    codeIpHourlyLimit: int('CODE_IP_HOURLY_LIMIT', 30, 1, 100_000),
    loginSlowdownAfter: int('LOGIN_SLOWDOWN_AFTER', 5, 1, 100),
    loginLockAfter: int('LOGIN_LOCK_AFTER', 10, 1, 1000),
    loginLockSeconds: int('LOGIN_LOCK_SECONDS', 900, 1, DAY),
    loginSlowdownMs: int('LOGIN_SLOWDOWN_MS', 250, 0, 10_000),
    trustProxy: bool('TRUST_PROXY', false),
    logLevel: str('LOG_LEVEL') ?? 'info',
    webRoot: str('WEB_ROOT'),
    ...readOauthConfig(env, read, problems, production),
    smtp: readSmtpConfig(read, problems),
    sms: readSmsConfig(read, problems),
    usageRetentionDays: int('USAGE_RETENTION_DAYS', 90, 1, 3650),
    captcha: readCaptchaConfig(env, problems),
  };
  if (config.loginLockAfter < config.loginSlowdownAfter) {
    problems.push(
      `LOGIN_LOCK_AFTER=${config.loginLockAfter} must not be below LOGIN_SLOWDOWN_AFTER=${config.loginSlowdownAfter}. Fix: raise LOGIN_LOCK_AFTER or lower LOGIN_SLOWDOWN_AFTER.`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
};

/**
 * `doctor`: checks the configuration and everything it points at — database, Redis, SMTP, the SMS
 * provider, WeChat and QQ, the captcha providers in effect — and says what to fix. Each check answers
 * ok, or a problem naming the variables and the fix; the command fails when any check does. No
 * finding carries a secret.
 */
import { Redis } from 'ioredis';
import { Migrator } from 'kysely';
import { VENDOR_NAMES, vendorFields } from '../config/captcha-config.ts';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { type Context, createContext } from '../context.ts';
import { KEYRING_SEALED_ELSEWHERE, keyringState, serverSecrets } from '../services/security/keyring.ts';
import { openStore } from '../store/db.ts';
import { migrationsFor } from '../store/migrations/index.ts';
import { checkCaptcha } from './doctor-captcha.ts';
import { checkEmail, checkOauth, checkSms } from './doctor-providers.ts';

export interface Finding {
  check: string;
  ok: boolean;
  detail: string;
}

const checkDatabase = async (config: Config): Promise<Finding[]> => {
  const store = openStore(config.databaseUrl);
  try {
    const migrations = migrationsFor(store.dialect);
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
    const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined);
    return [
      { check: 'database', ok: true, detail: `${store.dialect} at ${redact(config.databaseUrl)} answers` },
      pending.length === 0
        ? { check: 'migrations', ok: true, detail: 'schema is up to date' }
        : {
            check: 'migrations',
            ok: false,
            detail: `${pending.length} pending (${pending.map((m) => m.name).join(', ')}). Fix: run \`edupass migrate\` or start the server once.`,
          },
    ];
  } catch (error) {
    return [
      {
        check: 'database',
        ok: false,
        detail: `DATABASE_URL=${redact(config.databaseUrl)} cannot be opened: ${message(error)}. Fix: check the path is writable or the PostgreSQL URL, user and password.`,
      },
    ];
  } finally {
    await store.close().catch(() => {});
  }
};

const checkRedis = async (url: string): Promise<Finding> => {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {}); // the failure is reported below, through connect()
  try {
    await redis.connect();
    await redis.ping();
    return { check: 'redis', ok: true, detail: `${redact(url)} answers` };
  } catch (error) {
    return {
      check: 'redis',
      ok: false,
      detail: `REDIS_URL=${redact(url)} does not answer: ${message(error)}. Fix: start Redis or unset REDIS_URL.`,
    };
  } finally {
    redis.disconnect();
  }
};

/**
 * The secret, and whether it opens the keyring (read only: the server's start seals it again).
 * Production without an outside secret does not get here: loadConfig refuses it (secrets-config.ts).
 */
const checkSecrets = async (config: Config): Promise<Finding & { keyringOpens: boolean }> => {
  const where =
    config.jwtSecret === undefined ? 'a secret generated and kept in the database (development only)' : 'JWT_SECRET';
  const store = openStore(config.databaseUrl, { poolSize: 1 });
  try {
    const keyring = await keyringState(store.db, await serverSecrets(store.db, config));
    const details = {
      none: `${where}; no keyring yet (the first start makes one)`,
      current: `${where} opens the keyring`,
      previous: `JWT_SECRET_PREVIOUS opens the keyring (rotating): the next start seals it again under JWT_SECRET`,
      neither: KEYRING_SEALED_ELSEWHERE,
    };
    const keyringOpens = keyring === 'none' || keyring === 'current';
    return { check: 'secrets', ok: keyring !== 'neither', detail: details[keyring], keyringOpens };
  } finally {
    await store.close().catch(() => {});
  }
};

const checkPublicUrl = (config: Config): Finding =>
  config.production && !config.publicUrl.startsWith('https:')
    ? {
        check: 'public url',
        ok: false,
        detail: `PUBLIC_URL=${config.publicUrl} is not https in production; cookies would travel in clear. Fix: serve over https and set PUBLIC_URL=https://…`,
      }
    : { check: 'public url', ok: true, detail: config.publicUrl };

const redact = (url: string) => url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const silent = { info() {}, warn() {}, error() {} };

/**
 * Settings operators keep in the database (captcha providers and keys) need a Context. Only built
 * once the database answers with an up-to-date schema: building one migrates, which is for `migrate`
 * to do, not doctor. Redis is left out: it was checked on its own, and these settings do not live there.
 */
const withContext = async <T>(config: Config, run: (ctx: Context) => Promise<T>): Promise<T> => {
  const ctx = await createContext({ ...config, redisUrl: undefined }, silent);
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
};

const captchaNotChecked: Finding = {
  check: 'captcha',
  ok: false,
  detail:
    'not checked: the captcha providers and keys chosen in the console live in the database, which is not usable yet, or sealed under a keyring JWT_SECRET does not open. Fix: the database or secrets problems above (while rotating: start the server once with both secrets), then run doctor again.',
};

/** Every secret the configuration holds: a provider's error text could echo what it was sent. */
const secretsOf = (config: Config): string[] => {
  const vendorSecrets = VENDOR_NAMES.flatMap((vendor) =>
    vendorFields(vendor)
      .filter(([, spec]) => spec.secret)
      .map(([name]) => config.captcha.vendorEnvironment[vendor]?.[name]),
  );
  return [
    config.jwtSecret,
    config.smtp?.password,
    config.sms?.accessKeySecret,
    config.wechat.mode === 'real' ? config.wechat.appSecret : undefined,
    config.qq.mode === 'real' ? config.qq.appSecret : undefined,
    ...vendorSecrets,
  ].filter((secret): secret is string => secret !== undefined && secret.length >= 4);
};

const withoutSecrets = (findings: Finding[], secrets: string[]): Finding[] =>
  findings.map((f) => ({
    ...f,
    detail: secrets.reduce((detail, secret) => detail.replaceAll(secret, '***'), f.detail),
  }));

export const doctor = async (env: Record<string, string | undefined> = process.env): Promise<Finding[]> => {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError)
      return error.problems.map((detail) => ({ check: 'configuration', ok: false, detail }));
    throw error;
  }
  const findings: Finding[] = [{ check: 'configuration', ok: true, detail: 'every variable is valid' }];
  const database = await checkDatabase(config);
  const databaseUsable = database.every((f) => f.ok);
  const { keyringOpens, ...secrets } = databaseUsable
    ? await checkSecrets(config)
    : { check: 'secrets', ok: true, detail: 'keyring not checked (the database is not usable)', keyringOpens: false };
  findings.push(secrets, checkPublicUrl(config), ...database);
  if (config.redisUrl) findings.push(await checkRedis(config.redisUrl));
  const providers = await Promise.all([
    checkEmail(config),
    checkSms(config),
    checkOauth(config, 'wechat'),
    checkOauth(config, 'qq'),
    keyringOpens ? withContext(config, checkCaptcha) : [captchaNotChecked],
  ]);
  return withoutSecrets([...findings, ...providers.flat()], secretsOf(config));
};

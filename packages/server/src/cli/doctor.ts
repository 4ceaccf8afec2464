/**
 * `doctor`: checks the configuration and everything it points at, and says what to fix. Each check
 * answers ok, or a problem with its fix; the command fails when any check does.
 */
import { Redis } from 'ioredis';
import { Migrator } from 'kysely';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { openStore } from '../store/db.ts';
import { migrationsFor } from '../store/migrations/index.ts';

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

const checkSecrets = (config: Config): Finding =>
  config.production && config.jwtSecret === undefined
    ? {
        check: 'secrets',
        ok: false,
        detail:
          'JWT_SECRET is unset in production: tokens are signed with a key kept in the database. Fix: JWT_SECRET=$(openssl rand -base64 48) on every server.',
      }
    : {
        check: 'secrets',
        ok: true,
        detail: config.jwtSecret ? 'JWT_SECRET is set' : 'signing key kept in the database (development)',
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

/** Extra checks other modules contribute (delivery, OAuth, captcha vendors). */
export type ConfigCheck = (config: Config) => Promise<Finding[]> | Finding[];
export const extraChecks: ConfigCheck[] = [];

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
  findings.push(checkSecrets(config), checkPublicUrl(config), ...(await checkDatabase(config)));
  if (config.redisUrl) findings.push(await checkRedis(config.redisUrl));
  for (const check of extraChecks) findings.push(...(await check(config)));
  return findings;
};

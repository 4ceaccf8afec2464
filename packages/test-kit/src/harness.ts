/**
 * The real server for tests: built in-process from a configuration on a fresh database, listening on
 * a random loopback port, spoken to over HTTP. Nothing of ours is replaced.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type App, type BuildOptions, buildApp } from '../../server/src/app.ts';
import type { CaptchaConfig, CaptchaPolicy } from '../../server/src/config/captcha-config.ts';
import { type Config, loadConfig } from '../../server/src/config/config.ts';
import type { PasswordHashing } from '../../server/src/services/passwords/argon2.ts';
import { type AnswerMismatch, answerChecker } from './answer-check.ts';
import { createTestEventsDatabase } from './clickhouse-database.ts';
import { createTestDatabase } from './databases.ts';
import { type CallOptions, client } from './http-client.ts';

export interface TestServer {
  url: string;
  config: Config;
  app: App;
  /** The newest code sent to a phone or e-mail address (from the dev outbox), if any. */
  lastCode(to: string): Promise<string | undefined>;
  /** Answers that did not match their route's response schema (answer-check.ts); `close` fails on any. */
  answerMismatches: AnswerMismatch[];
  /** `METHOD url status` of each answer checked (appended to EDUPASS_ANSWER_LOG when set, to count coverage). */
  answersChecked: Set<string>;
  close(): Promise<void>;
}

/**
 * Limits loose enough that a test file's many sends and failed logins do not trip them. Captcha
 * policy `never`: suites about other things send codes and guess passwords from one address without
 * tickets; the captcha suites (security/captcha-enforcement, routes/captcha) set their policy
 * explicitly, and the web's end-to-end tests run under `risk` (see web/e2e/support/app-server.ts).
 */
export const TEST_ENV: Record<string, string> = {
  CAPTCHA_POLICY: 'never',
  CODE_RESEND_INTERVAL: '0',
  CODE_DAILY_LIMIT: '1000',
  CODE_IP_HOURLY_LIMIT: '100000',
  LOGIN_SLOWDOWN_MS: '0',
  LOG_LEVEL: 'warn',
  // Operators in suites about other things sign in by password alone; the second-factor suites set `required`.
  OPERATOR_MFA: 'optional',
  // Test receivers of webhooks listen on loopback.
  WEBHOOK_ALLOW_PRIVATE: '1',
  // Suites about other things see a deletion happen at once; the grace-period suites set their own.
  ACCOUNT_DELETION_GRACE_DAYS: '0',
  // Suites about other things sign staff in with the kit's PASSWORD (11 characters, 3 kinds), move the
  // clock by months and leave a console idle while they work; the staff-identity suite
  // (services/passwords/staff-identity.test.ts) runs the shipped policy and time-out.
  STAFF_PASSWORD_MIN_LENGTH: '8',
  STAFF_PASSWORD_MAX_AGE_DAYS: '0',
  STAFF_IDLE_MINUTES: '0',
};

/**
 * argon2id at a token cost (256 KiB, one pass) for test servers: a suite signs up and signs in
 * hundreds of times, and the deployed cost (ARGON2_OPTIONS) would spend most of its CPU hashing.
 * Suites about the hash itself pass `{ passwordHashing: ARGON2_OPTIONS }` to the server.
 */
export const TEST_PASSWORD_HASHING: PasswordHashing = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/** The default captcha configuration with these policies (`pid:scene` → policy) and settings. */
export const captchaWith = (
  policies: Record<string, CaptchaPolicy>,
  settings: Partial<CaptchaConfig> = {},
): Pick<Config, 'captcha'> => ({ captcha: { ...loadConfig({}).captcha, ...settings, policies } });

export const startTestServer = async (
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestServer> => {
  const database = await createTestDatabase({ migrated: true });
  const events = createTestEventsDatabase();
  const avatarDir = mkdtempSync(join(tmpdir(), 'edupass-avatars-'));
  const config: Config = {
    ...loadConfig({ ...TEST_ENV, DATABASE_URL: database.url, AVATAR_DIR: avatarDir }),
    ...events?.config,
    port: 0,
    host: '127.0.0.1',
    passwordHashing: TEST_PASSWORD_HASHING,
    ...overrides,
  };
  const app = await buildApp(config, { logger: false, ...options });
  const answers = answerChecker();
  answers.install(app.app);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  // Pictures on local disk are served by this server: their URLs name the port it was given.
  if (overrides.avatars === undefined && app.ctx.config.avatars.s3 === undefined) {
    app.ctx.config.avatars = { ...app.ctx.config.avatars, publicUrl: `${url}/avatars` };
  }
  return {
    url,
    config,
    app,
    answerMismatches: answers.mismatches,
    answersChecked: answers.checked,
    async lastCode(to) {
      const response = await fetch(`${url}/dev/outbox?to=${encodeURIComponent(to)}`);
      const rows = (await response.json()) as { code: string }[];
      // Notices (no code) land in the outbox too: the newest row with a code.
      return rows.find((row) => row.code !== '')?.code;
    },
    async close() {
      await app.close();
      await database.drop();
      await events?.drop();
      rmSync(avatarDir, { recursive: true, force: true });
      const log = process.env.EDUPASS_ANSWER_LOG;
      if (log) appendFileSync(log, [...answers.checked].map((line) => `${line}\n`).join(''));
      // Every answer the server sent is held to the API docs' schema of its route.
      expect(answers.mismatches).toEqual([]);
    },
  };
};

/**
 * One test server for the test file (or describe block) that calls this: started in its beforeAll,
 * closed in its afterAll. `server` stands for it once started, and `call` speaks JSON to it.
 */
export const useTestServer = (overrides: Partial<Config> = {}, options: BuildOptions = {}) => {
  let running: TestServer | undefined;
  const started = (): TestServer => {
    if (running === undefined) throw new Error('the test server is used before its beforeAll started it');
    return running;
  };
  beforeAll(async () => {
    running = await startTestServer(overrides, options);
  });
  afterAll(() => running?.close());
  const server: TestServer = {
    get url() {
      return started().url;
    },
    get config() {
      return started().config;
    },
    get app() {
      return started().app;
    },
    get answerMismatches() {
      return started().answerMismatches;
    },
    get answersChecked() {
      return started().answersChecked;
    },
    lastCode: (to) => started().lastCode(to),
    close: () => started().close(),
  };
  const call = <T = unknown>(method: string, path: string, body?: unknown, options: CallOptions = {}) =>
    client(started().url)<T>(method, path, body, options);
  return { server, call };
};

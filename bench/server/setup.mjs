// What the server bench (run.mjs) sets up: the bundles, the server's environment, and the user it
// signs up.
import { join } from 'node:path';
import { build } from 'esbuild';
import { SERVER_BUNDLE } from '../../scripts/server-bundle.mjs';

const root = new URL('../../', import.meta.url).pathname;
const here = new URL('./', import.meta.url).pathname;

export const PHONE = '13800138000';
export const PASSWORD = 'Bench-pass-2026';
export const PID = 'edupass';

/**
 * Bundles the server launcher and the argon2 probe (workspace sources in, npm packages out) and
 * answers the directory of `server.mjs` and `argon2.mjs`. It sits under the server package's
 * node_modules/.cache so the bundles resolve the installed packages, those npm keeps under the
 * workspace (nodemailer) as well as the hoisted ones.
 */
export const bundleBench = async () => {
  const outdir = join(root, 'packages/server/node_modules/.cache/edupass-bench-server');
  await build({
    entryPoints: { server: join(here, 'server-entry.ts'), argon2: join(here, 'argon2-entry.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    ...SERVER_BUNDLE,
    logLevel: 'warning',
  });
  return outdir;
};

/** The server's environment: a fresh SQLite file in `scratch`, limits raised for one busy user. */
export const serverEnvironment = (scratch, logLevel) => ({
  HOST: '127.0.0.1',
  PORT: '0',
  DATABASE_URL: join(scratch, 'edupass.db'),
  CODE_RESEND_INTERVAL: '0',
  CODE_DAILY_LIMIT: '1000',
  CODE_IP_HOURLY_LIMIT: '100000',
  LOGIN_SLOWDOWN_MS: '0',
  LOGIN_LOCK_AFTER: '1000',
  LOG_LEVEL: logLevel,
  NODE_ENV: 'development',
  // The bench measures the server, not human verification: its one address signs in over and over,
  // which the default risk policy rightly challenges.
  CAPTCHA_POLICY: 'never',
});

export const call = async (base, method, path, body, headers = {}) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), 'auth-version': '1', ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
};

/**
 * Signs one user up the way a client does (code request, the dev outbox, register) and in with
 * Auth-Version; answers a token set's access token, the profile answer's text and `login()`.
 */
export const signUpBenchUser = async (base) => {
  await call(base, 'POST', '/tiger/v3/web/accounts/captcha/register/phone/with-agreement', {
    phone_number: PHONE,
    pid: PID,
  });
  const [sent] = await call(base, 'GET', `/dev/outbox?to=${PHONE}`);
  await call(base, 'POST', '/tiger/v3/web/accounts/register/phone/with-agreement', {
    phone_number: PHONE,
    captcha: sent.code,
    password: PASSWORD,
    agreement_ids: [-1],
    pid: PID,
  });
  const loginBody = { identity: PHONE, password: PASSWORD, pid: PID };
  const login = () => call(base, 'POST', '/tiger/v3/web/accounts/login', loginBody);
  const accessToken = (await login()).auth.token.access.token;
  const profileText = JSON.stringify(
    await call(base, 'GET', '/tiger/v3/web/accounts/profile', undefined, { authorization: `Bearer ${accessToken}` }),
  );
  return { accessToken, profileText, login, loginBody };
};

/** `count` refresh tokens, each of a session of its own (logins, ten at a time). */
export const refreshTokensOf = async (login, count) => {
  const tokens = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, login));
    tokens.push(...batch.map((r) => r.auth.token.refresh.token));
  }
  return tokens;
};

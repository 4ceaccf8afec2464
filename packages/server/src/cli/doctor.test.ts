/**
 * `doctor` against what the settings point at: a real SMTP server (smtp-server), the signature-checking
 * SMS peers of both providers, local HTTP hosts for WeChat/QQ and captcha vendors, closed ports for
 * what cannot be reached, and captcha choices stored through the console's own services. Every
 * failure names the variable and its fix; no finding ever carries a secret.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { aliyunPeer, type SmsPeer, tencentPeer } from '@edupass/test-kit/sms-peers';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { type Context, createContext } from '../context.ts';
import { clearCaptchaProvider, setCaptchaProvider } from '../services/captcha/policy.ts';
import { putVendorFields, removeVendorFields } from '../services/captcha/vendor-keys.ts';
import { seal } from '../services/security/sealed-values.ts';
import { putVendorKeys } from '../store/captcha/captcha.ts';
import { openStore } from '../store/db.ts';
import { migrate } from '../store/migrate.ts';
import { doctor, type Finding } from './doctor.ts';

/** Nothing listens here: connections are refused at once. */
const CLOSED = 'http://127.0.0.1:1';
const JWT_SECRET = 'doctor-test-jwt-secret-0123456789abcdef';

let database: TestDatabase;
const base = () => ({ DATABASE_URL: database.url, JWT_SECRET });

beforeAll(async () => {
  database = await createTestDatabase();
  const store = openStore(database.url);
  await migrate(store);
  await store.close();
});
afterAll(async () => {
  await database?.drop();
});

const only = (findings: Finding[], check: string): Finding[] => findings.filter((f) => f.check === check);
const one = (findings: Finding[], check: string): Finding => {
  const [finding, ...more] = only(findings, check);
  expect(more, check).toEqual([]);
  if (!finding) throw new Error(`no ${check} finding`);
  return finding;
};
const expectNoSecret = (findings: Finding[], ...secrets: string[]) => {
  for (const { detail } of findings) for (const secret of secrets) expect(detail).not.toContain(secret);
};
/** A failure that names each variable and says how to fix it. */
const expectFix = (finding: Finding, ...variables: string[]) => {
  expect(finding.ok, finding.detail).toBe(false);
  expect(finding.detail).toContain('Fix');
  for (const name of variables) expect(finding.detail).toContain(name);
};

const listen = async (server: Server | SMTPServer) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = (server instanceof SMTPServer ? server.server.address() : server.address()) as AddressInfo;
  return address.port;
};

describe('doctor: e-mail', () => {
  const PASSWORD = 'smtp-pass-Q7w9xk';
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === PASSWORD) return callback(null, { user: 'mailer' });
        callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
      },
    });
    port = await listen(smtp);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  const smtpEnv = (password: string) => ({
    ...base(),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(port),
    SMTP_SECURE: 'false',
    SMTP_USER: 'mailer',
    SMTP_PASSWORD: password,
    SMTP_FROM: 'EduPass <no-reply@example.com>',
  });

  test('logs in to the SMTP server with the right password', async () => {
    const findings = await doctor(smtpEnv(PASSWORD));
    const email = one(findings, 'email');
    expect(email).toMatchObject({ ok: true, detail: expect.stringMatching(/accepts the login of SMTP_USER/) });
    expectNoSecret(findings, PASSWORD, JWT_SECRET);
  });

  test('a refused login names SMTP_USER and SMTP_PASSWORD', async () => {
    const wrong = 'smtp-wrong-Z3p8';
    const findings = await doctor(smtpEnv(wrong));
    const email = one(findings, 'email');
    expectFix(email, 'SMTP_USER', 'SMTP_PASSWORD');
    expect(email.detail).toMatch(/refused the login/);
    expectNoSecret(findings, wrong, JWT_SECRET);
  });

  test('a server that does not answer names SMTP_HOST and SMTP_PORT', async () => {
    const findings = await doctor({ ...smtpEnv(PASSWORD), SMTP_PORT: '1' });
    expectFix(one(findings, 'email'), 'SMTP_HOST', 'SMTP_PORT');
    expectNoSecret(findings, PASSWORD);
  });
});

const KEY_ID = 'AKID-doctor-41c7';
const SECRET = 'sms-secret-8d2f6a';

describe.each([
  {
    provider: 'aliyun',
    peer: aliyunPeer,
    env: { SMS_TEMPLATE: 'SMS_100', SMS_TEMPLATES: 'register:SMS_200,login:SMS_100' },
    templates: ['SMS_100', 'SMS_200'],
    reads: ['GetSmsSign', 'GetSmsTemplate', 'GetSmsTemplate'],
  },
  {
    provider: 'tencent',
    peer: tencentPeer,
    env: { SMS_TEMPLATE: '1110', SMS_TEMPLATES: 'register:1111,login:1110', SMS_APP_ID: '1400006666' },
    templates: ['1110', '1111'],
    reads: ['DescribeSmsTemplateList'],
  },
])('doctor: $provider SMS', (c) => {
  let peer: SmsPeer;
  beforeAll(async () => {
    peer = await c.peer(KEY_ID, SECRET);
  });
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(() => {
    peer.reviews.clear();
    peer.requests.length = 0;
  });

  const smsEnv = (overrides: Record<string, string> = {}) => ({
    ...base(),
    SMS_PROVIDER: c.provider,
    SMS_ACCESS_KEY_ID: KEY_ID,
    SMS_ACCESS_KEY_SECRET: SECRET,
    SMS_SIGN_NAME: 'EduPass',
    SMS_ENDPOINT: peer.url,
    SMS_TIMEOUT_MS: '2000',
    ...c.env,
    ...overrides,
  });
  const [template, registerTemplate] = c.templates as [string, string];

  test('good keys and approved templates pass, read-only', async () => {
    const findings = await doctor(smsEnv());
    const sms = one(findings, 'sms');
    expect(sms.ok, sms.detail).toBe(true);
    for (const name of c.templates) expect(sms.detail).toContain(name);
    expect(peer.requests.map((r) => r.action)).toEqual(c.reads);
    expectNoSecret(findings, SECRET);
  });

  test('a wrong secret names SMS_ACCESS_KEY_SECRET', async () => {
    const wrong = 'sms-wrong-5e1b93';
    const findings = await doctor(smsEnv({ SMS_ACCESS_KEY_SECRET: wrong }));
    expectFix(one(findings, 'sms'), 'SMS_ACCESS_KEY_SECRET');
    expectNoSecret(findings, wrong, SECRET);
  });

  test('an unknown key names SMS_ACCESS_KEY_ID', async () => {
    const findings = await doctor(smsEnv({ SMS_ACCESS_KEY_ID: 'AKID-nobody' }));
    expectFix(one(findings, 'sms'), 'SMS_ACCESS_KEY_ID');
    expectNoSecret(findings, SECRET);
  });

  test('a template under review names the variable that picks it', async () => {
    peer.reviews.set(registerTemplate, 'reviewing');
    const findings = await doctor(smsEnv());
    const sms = one(findings, 'sms');
    expectFix(sms, 'SMS_TEMPLATES for register', registerTemplate);
    expect(sms.detail).toMatch(/still reviewing/);
    expect(sms.detail).not.toContain(`template ${template} `);
  });

  test('a rejected template gives the reviewer’s reason', async () => {
    peer.reviews.set(template, 'rejected');
    const sms = one(await doctor(smsEnv()), 'sms');
    expectFix(sms, 'SMS_TEMPLATE', template);
    expect(sms.detail).toMatch(/did not approve.*文件不能证明信息真实性/);
  });

  test('a template the account does not have is named', async () => {
    peer.reviews.set(registerTemplate, 'unknown');
    const sms = one(await doctor(smsEnv()), 'sms');
    expectFix(sms, 'SMS_TEMPLATES for register', registerTemplate);
    expect(sms.detail).toMatch(/has no template/);
    expect(sms.detail).not.toContain(`template ${template} `);
  });

  test('an endpoint that does not answer names SMS_ENDPOINT', async () => {
    const findings = await doctor(smsEnv({ SMS_ENDPOINT: CLOSED }));
    expectFix(one(findings, 'sms'), 'SMS_ENDPOINT');
    expectNoSecret(findings, SECRET);
  });

  if (c.provider === 'aliyun') {
    test('a signature under review names SMS_SIGN_NAME', async () => {
      peer.reviews.set('EduPass', 'reviewing');
      expectFix(one(await doctor(smsEnv()), 'sms'), 'SMS_SIGN_NAME');
    });
  } else {
    test('says the signature name is not checked, and refuses a template that is not an id', async () => {
      expect(one(await doctor(smsEnv()), 'sms').detail).toMatch(/SMS_SIGN_NAME is not checked/);
      expectFix(one(await doctor(smsEnv({ SMS_TEMPLATES: 'register:SMS_1' })), 'sms'), 'SMS_TEMPLATES for register');
    });
  }
});

describe('doctor: WeChat and QQ', () => {
  const requests: IncomingMessage[] = [];
  let host: Server;
  let port = 0;
  beforeAll(async () => {
    host = createServer((request, response) => {
      requests.push(request);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    port = await listen(host);
  });
  afterAll(async () => {
    host.closeAllConnections();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  });

  test('real mode: an API host that answers passes, one that does not is named', async () => {
    const findings = await doctor({
      ...base(),
      WECHAT_APP_ID: 'wx1234567890abcdef',
      WECHAT_APP_SECRET: 'wechat-secret-77aa',
      WECHAT_API_URL: `http://127.0.0.1:${port}`,
      QQ_APP_ID: '101234567',
      QQ_APP_KEY: 'qq-key-90bc',
      QQ_GRAPH_URL: CLOSED,
      OAUTH_TIMEOUT_MS: '2000',
    });
    const wechat = one(findings, 'wechat');
    expect(wechat).toMatchObject({ ok: true, detail: expect.stringMatching(/answers \(HTTP 404\).*not checked/) });
    // The path only: Node 24's fetch keeps the empty query mark (`/?`) that Node 20's dropped.
    expect(requests.map((r) => new URL(r.url ?? '', 'http://x').pathname)).toEqual(['/']);
    expectFix(one(findings, 'qq'), 'QQ_GRAPH_URL');
    expectNoSecret(findings, 'wechat-secret-77aa', 'qq-key-90bc');
  });

  test('development without credentials: the development provider; production: off', async () => {
    const dev = await doctor(base());
    expect(one(dev, 'wechat')).toMatchObject({ ok: true, detail: expect.stringMatching(/development provider/) });
    const production = await doctor({ ...base(), NODE_ENV: 'production', PUBLIC_URL: 'https://accounts.example.com' });
    expect(one(production, 'qq')).toEqual({
      check: 'qq',
      ok: true,
      detail: 'off: set QQ_APP_ID/QQ_APP_KEY to turn on',
    });
    // Without providers, production codes would reach nobody.
    expectFix(one(production, 'email'), 'SMTP_HOST', 'SMTP_FROM');
    expectFix(one(production, 'sms'), 'SMS_PROVIDER');
  });
});

describe('doctor: captcha', () => {
  let vendor: Server;
  let vendorUrl = '';
  let ctx: Context | undefined;
  const silent = { info() {}, warn() {}, error() {} };

  beforeAll(async () => {
    vendor = createServer((_request, response) => response.writeHead(405).end());
    vendorUrl = `http://127.0.0.1:${await listen(vendor)}/api/v2/verify`;
  });
  afterAll(async () => {
    vendor.closeAllConnections();
    await new Promise<void>((resolve) => vendor.close(() => resolve()));
  });
  afterEach(async () => {
    if (!ctx) return;
    await clearCaptchaProvider(ctx, '*');
    await removeVendorFields(ctx, { vendor: 'GEETEST' });
    await ctx.close();
    ctx = undefined;
  });

  /** A context as the server would build it, to choose providers and enter keys through the console's services. */
  const consoleContext = async (env: Record<string, string>) => {
    ctx = await createContext(loadConfig({ ...base(), ...env }), silent);
    return ctx;
  };

  test('SLIDE alone is the offline puzzle', async () => {
    const captcha = only(await doctor(base()), 'captcha');
    expect(captcha).toEqual([
      { check: 'captcha', ok: true, detail: 'SLIDE for *, edupass: first-party slide puzzle (offline)' },
    ]);
  });

  test('a vendor chosen in the console whose environment keys are gone names them and both ways to set them', async () => {
    const chosen = await consoleContext({ GEETEST_ID: 'gt-id-1', GEETEST_KEY: 'gt-key-secret-1' });
    await setCaptchaProvider(chosen, '*', 'GEETEST');
    const findings = await doctor(base());
    const [geetest, ...rest] = only(findings, 'captcha');
    expect(rest).toEqual([]);
    expectFix(geetest as Finding, 'GEETEST for *, edupass', 'GEETEST_ID', 'GEETEST_KEY', 'console');
  });

  test('console keys sealed under a keyring since reset are unreadable, with the fix', async () => {
    const chosen = await consoleContext({});
    await putVendorFields(chosen, { vendor: 'GEETEST', values: { id: 'gt-id-2', key: 'gt-key-secret-2' } });
    await setCaptchaProvider(chosen, '*', 'GEETEST');
    // As a reset leaves them: sealed under a key this keyring does not hold.
    await putVendorKeys(chosen.db, [
      {
        vendor: 'GEETEST',
        field: 'key',
        value: seal(createSecretKey(randomBytes(32)), 'gt-key-secret-2', 'captcha-vendor:GEETEST:key'),
        updated_at: Date.now(),
      },
    ]);
    const geetest = one(await doctor(base()), 'captcha');
    expectFix(geetest, 'GEETEST_KEY', 'can no longer be read', 'keyring was reset');
  });

  test('a JWT_SECRET that does not open the keyring is named with the fix; the one before it in JWT_SECRET_PREVIOUS is rotating', async () => {
    await consoleContext({});
    const other = 'a-later-jwt-secret-0123456789abcdef-later';
    const findings = await doctor({ ...base(), JWT_SECRET: other });
    expectFix(one(findings, 'secrets'), 'does not open the keyring', 'JWT_SECRET_PREVIOUS', 'reset-keyring');
    expect(one(findings, 'captcha')).toMatchObject({ ok: false, detail: expect.stringMatching(/^not checked/) });
    const rotating = await doctor({ ...base(), JWT_SECRET: other, JWT_SECRET_PREVIOUS: JWT_SECRET });
    expect(one(rotating, 'secrets')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^JWT_SECRET_PREVIOUS opens/),
    });
    // Read only: the keyring still opens with the secret that sealed it.
    expect(one(await doctor(base()), 'secrets')).toMatchObject({ ok: true, detail: 'JWT_SECRET opens the keyring' });
    expectNoSecret([...findings, ...rotating], other, JWT_SECRET);
  });

  const tencentEnv = (endpoint: string) => ({
    ...base(),
    CAPTCHA_PROVIDER: '*=SLIDE,edupass=TENCENT',
    CAPTCHA_VENDOR_TIMEOUT: '2000',
    TENCENT_CAPTCHA_APP_ID: '190000001',
    TENCENT_CAPTCHA_APP_SECRET_KEY: 'tc-app-secret-31',
    TENCENTCLOUD_SECRET_ID: 'tc-secret-id-32',
    TENCENTCLOUD_SECRET_KEY: 'tc-secret-key-33',
    TENCENT_CAPTCHA_ENDPOINT: endpoint,
  });
  const TENCENT_SECRETS = ['tc-app-secret-31', 'tc-secret-id-32', 'tc-secret-key-33'];

  test('environment keys with a verify endpoint that answers pass', async () => {
    const findings = await doctor(tencentEnv(vendorUrl));
    const tencent = only(findings, 'captcha').find((f) => f.detail.startsWith('TENCENT'));
    expect(tencent).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^TENCENT for edupass: .*answers \(HTTP 405\)/),
    });
    expectNoSecret(findings, ...TENCENT_SECRETS);
  });

  test('environment keys with a verify endpoint that does not answer name the endpoint variable', async () => {
    const findings = await doctor(tencentEnv(CLOSED));
    const captcha = only(findings, 'captcha');
    expect(captcha.map((f) => f.ok)).toEqual([true, false]);
    expectFix(captcha[1] as Finding, 'TENCENT for edupass', 'TENCENT_CAPTCHA_ENDPOINT');
    expectNoSecret(findings, ...TENCENT_SECRETS);
  });
});

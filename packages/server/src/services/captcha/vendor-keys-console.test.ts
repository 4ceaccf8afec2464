/**
 * Captcha provider per product and vendor keys set from the console, over HTTP against the vendors'
 * local stand-ins: the rule service and the verifiers follow each change at once (on every server
 * process), secrets never leave the server nor sit in the database in plaintext, bad input is E_1.
 */
import { adminRoutes, type CaptchaSettings, isServerCode } from '@edupass/protocol';
import { auditorToken, expectError, nextPhone, PID, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { PEER_KEYS, startVendorPeers, type VendorPeers } from '@edupass/test-kit/captcha-vendor-peers';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { loadConfig } from '../../config/config.ts';
import type { CaptchaTables } from '../../store/captcha/captcha.ts';

let peers: VendorPeers;
let server: TestServer;
let call: ReturnType<typeof client>;
let token: string;
/** A second server process on the same database. */
let other: App;
let callOther: ReturnType<typeof client>;

/** The environment configures Tencent with a secret key the vendor no longer accepts, and `kids` its own provider. */
const STALE_SECRET = 'stale-tencent-secret';

beforeAll(async () => {
  peers = await startVendorPeers();
  const environment = loadConfig({ NEXTDATA_CAPTCHA_ENDPOINT: `${peers.url}/nextdata/fverify` }).captcha;
  const captcha = peers.captchaConfig({
    vendorEnvironment: environment.vendorEnvironment,
    // Every rule answer a challenge (the vendor in effect); sign-up codes free, so plain users can be made.
    policies: { '*:*': 'always', '*:register': 'never' },
    providers: { '*': 'SLIDE', kids: 'TENCENT' },
    geetest: undefined,
    netease: undefined,
    nextdata: undefined,
    aliyun: undefined,
    tencent: { ...PEER_KEYS.tencent, secretKey: STALE_SECRET, endpoint: `${peers.url}/tencent/` },
  });
  server = await startTestServer({ captcha });
  call = client(server.url);
  token = (await signInOperator(server)).token;
  other = await buildApp(server.config, { logger: false });
  await other.app.listen({ port: 0, host: '127.0.0.1' });
  const address = other.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  callOther = client(`http://127.0.0.1:${address.port}`);
});
afterAll(async () => {
  await other?.close();
  await server?.close();
  await peers?.close();
});

const NETEASE = {
  captchaId: PEER_KEYS.netease.captchaId,
  secretId: PEER_KEYS.netease.secretId,
  secretKey: PEER_KEYS.netease.secretKey,
};
const SECRETS = [
  PEER_KEYS.netease.secretId,
  PEER_KEYS.netease.secretKey,
  PEER_KEYS.tencent.secretKey,
  PEER_KEYS.nextdata.accessKey,
];

const post = (path: string, body: unknown) => call('POST', path, body, { token });
const settings = async () => (await call<CaptchaSettings>('GET', '/admin/captcha', undefined, { token })).body;
const vendor = async (name: string) => (await settings()).vendors.find((v) => v.name === name);
const rule = async (pid: string, through = call) =>
  (
    await through<{ rule: string; appid: string }>('POST', '/captcha/rule/v3', {
      pid,
      scene: 'login',
      identity: nextPhone(),
      capabilities: ['SLIDE'],
    })
  ).body;
const rawKeys = () =>
  server.app.ctx.db.withTables<CaptchaTables>().selectFrom('captcha_vendor_keys').selectAll().execute();
const auditLog = async () =>
  (
    await call<{ action: string; target: string; detail: string; operator_id: number }[]>(
      'GET',
      '/admin/audit',
      undefined,
      { token: await auditorToken(server) },
    )
  ).body;

describe('vendor keys from the console', () => {
  test('keys set in the console make a vendor usable: the verifier signs with them against the vendor', async () => {
    expect(await vendor('NETEASE')).toMatchObject({
      configured: false,
      missing: ['captchaId', 'secretId', 'secretKey'],
    });
    const set = await post('/admin/captcha/vendors/keys', {
      vendor: 'NETEASE',
      values: { ...NETEASE, endpoint: `${peers.url}/netease/verify` },
      custom_endpoint: true,
    });
    expect(set.status).toBe(204);
    const state = await vendor('NETEASE');
    expect(state).toMatchObject({ configured: true, missing: [] });
    expect(state?.fields).toEqual([
      {
        name: 'captchaId',
        env: 'NETEASE_CAPTCHA_ID',
        secret: false,
        url: false,
        value: NETEASE.captchaId,
        source: 'console',
      },
      { name: 'secretId', env: 'NETEASE_SECRET_ID', secret: true, url: false, source: 'console' },
      { name: 'secretKey', env: 'NETEASE_SECRET_KEY', secret: true, url: false, source: 'console' },
      {
        name: 'endpoint',
        env: 'NETEASE_CAPTCHA_ENDPOINT',
        secret: false,
        url: true,
        value: `${peers.url}/netease/verify`,
        source: 'console',
      },
    ]);

    const passed = await call<{ ticket: string }>('POST', '/captcha/netease', {
      validate: 'pass-1',
      appid: NETEASE.captchaId,
    });
    expect(passed.status).toBe(200);
    expect(passed.body.ticket.length).toBeGreaterThan(20);
    expect(peers.calls.filter((c) => c.vendor === 'netease').at(-1)).toMatchObject({
      signatureOk: true,
      params: { secretId: NETEASE.secretId, captchaId: NETEASE.captchaId },
    });
    // The other process reads the same keys: no copy kept per process.
    expect((await callOther('POST', '/captcha/netease', { validate: 'pass-2', appid: NETEASE.captchaId })).status).toBe(
      200,
    );
  });

  test('a console key overlays the environment field by field, and clearing it brings the environment back', async () => {
    const tencentBody = { appid: PEER_KEYS.tencent.appId, tencentTicket: 'pass-t', randomStr: '@r' };
    expectError(await call('POST', '/captcha/tencent', tencentBody), '10017003');
    expect(peers.calls.filter((c) => c.vendor === 'tencent').at(-1)?.signatureOk).toBe(false);

    await post('/admin/captcha/vendors/keys', {
      vendor: 'TENCENT',
      values: { secretKey: PEER_KEYS.tencent.secretKey },
    });
    expect((await call('POST', '/captcha/tencent', tencentBody)).status).toBe(200);
    expect(peers.calls.filter((c) => c.vendor === 'tencent').at(-1)?.signatureOk).toBe(true);
    const sources = Object.fromEntries((await vendor('TENCENT'))?.fields.map((f) => [f.name, f.source]) ?? []);
    expect(sources).toEqual({
      appId: 'environment',
      appSecretKey: 'environment',
      secretId: 'environment',
      secretKey: 'console',
      endpoint: 'environment',
    });

    await post('/admin/captcha/vendors/keys/clear', { vendor: 'TENCENT', fields: ['secretKey'] });
    expect((await vendor('TENCENT'))?.fields.find((f) => f.name === 'secretKey')?.source).toBe('environment');
    expectError(await call('POST', '/captcha/tencent', tencentBody), '10017003');
  });

  test('an endpoint set alone in the environment applies to keys entered in the console', async () => {
    await post('/admin/captcha/vendors/keys', {
      vendor: 'NEXTDATA',
      values: { organization: PEER_KEYS.nextdata.organization, accessKey: PEER_KEYS.nextdata.accessKey },
    });
    const endpoint = (await vendor('NEXTDATA'))?.fields.find((f) => f.name === 'endpoint');
    expect(endpoint).toMatchObject({ value: `${peers.url}/nextdata/fverify`, source: 'environment' });
    const answer = await call('POST', '/captcha/nextdata', { rid: 'pass-n', appid: PEER_KEYS.nextdata.organization });
    expect(answer.status).toBe(200);
    expect(peers.calls.filter((c) => c.vendor === 'nextdata').at(-1)?.signatureOk).toBe(true);
    await post('/admin/captcha/vendors/keys/clear', { vendor: 'NEXTDATA' });
  });

  test('secrets appear in no answer and no audit entry, and are sealed in the database', async () => {
    const answers = JSON.stringify([await settings(), await auditLog()]);
    for (const secret of SECRETS) expect(answers).not.toContain(secret);
    const audit = await auditLog();
    expect(audit.find((e) => e.action === 'captcha.vendor.set' && e.target === 'captcha-vendor:NETEASE')).toMatchObject(
      {
        detail: `captchaId, secretId, secretKey, endpoint; endpoint=${peers.url}/netease/verify`,
      },
    );

    const rows = await rawKeys();
    const row = (field: string) => rows.find((r) => r.vendor === 'NETEASE' && r.field === field)?.value ?? '';
    expect(row('captchaId')).toBe(NETEASE.captchaId);
    for (const field of ['secretId', 'secretKey'] as const) {
      expect(row(field)).toMatch(/^v1\./);
      expect(row(field)).not.toContain(NETEASE[field]);
      expect(Buffer.from(row(field).split('.')[2] ?? '', 'base64url').toString('utf8')).not.toContain(NETEASE[field]);
    }
  });

  test('a sealed secret moved to another field does not open there: it reads as unreadable, not as a key', async () => {
    const db = server.app.ctx.db.withTables<CaptchaTables>();
    const rows = await rawKeys();
    const sealedId = rows.find((r) => r.vendor === 'NETEASE' && r.field === 'secretId')?.value ?? '';
    const sealedKey = rows.find((r) => r.vendor === 'NETEASE' && r.field === 'secretKey')?.value ?? '';
    const put = (value: string) =>
      db
        .updateTable('captcha_vendor_keys')
        .set({ value })
        .where('vendor', '=', 'NETEASE')
        .where('field', '=', 'secretKey')
        .execute();
    await put(sealedId);
    const field = (await vendor('NETEASE'))?.fields.find((f) => f.name === 'secretKey');
    expect(field).toMatchObject({ source: null, unreadable: true });
    expectError(await call('POST', '/captcha/netease', { validate: 'pass-3', appid: NETEASE.captchaId }), '10017002');
    await put(sealedKey);
    expect((await vendor('NETEASE'))?.configured).toBe(true);
  });
});

describe('provider per product from the console', () => {
  test('choosing a provider changes what the rule service answers for that product, on every process', async () => {
    expect(await rule(PID)).toMatchObject({ rule: 'SLIDE', appid: '' });
    expect((await post('/admin/captcha/providers', { pid: PID, provider: 'NETEASE' })).status).toBe(204);
    expect(await rule(PID)).toEqual({ rule: 'NETEASE', appid: NETEASE.captchaId, ticket: '' });
    expect(await rule(PID, callOther)).toMatchObject({ rule: 'NETEASE', appid: NETEASE.captchaId });
    expect((await rule('another-product')).rule).toBe('SLIDE');

    expect((await post('/admin/captcha/providers/clear', { pid: PID })).status).toBe(204);
    expect((await rule(PID)).rule).toBe('SLIDE');
    const audit = await auditLog();
    expect(audit.slice(0, 2).map((e) => [e.action, e.target, e.detail])).toEqual([
      ['captcha.provider.clear', `captcha:${PID}`, ''],
      ['captcha.provider.set', `captcha:${PID}`, 'NETEASE'],
    ]);
  });

  test("precedence: the product's own (console, then configuration) before * (console, then configuration)", async () => {
    await post('/admin/captcha/providers', { pid: '*', provider: 'netease' });
    expect((await rule('another-product')).rule).toBe('NETEASE');
    expect((await rule('kids')).rule).toBe('TENCENT');
    await post('/admin/captcha/providers', { pid: 'kids', provider: 'SLIDE' });
    expect((await rule('kids')).rule).toBe('SLIDE');

    const choices = (await settings()).providers;
    expect(choices[0]).toEqual({ pid: '*', operator: 'NETEASE', configured: 'SLIDE', effective: 'NETEASE' });
    expect(choices.find((c) => c.pid === 'kids')).toEqual({
      pid: 'kids',
      operator: 'SLIDE',
      configured: 'TENCENT',
      effective: 'SLIDE',
    });
    expect(choices.find((c) => c.pid === PID)).toEqual({
      pid: PID,
      operator: null,
      configured: null,
      effective: 'NETEASE',
    });

    await post('/admin/captcha/providers/clear', { pid: 'kids' });
    await post('/admin/captcha/providers/clear', { pid: '*' });
    expect((await rule('kids')).rule).toBe('TENCENT');
    expect((await rule('another-product')).rule).toBe('SLIDE');
  });

  test('a vendor whose keys are not all set cannot be chosen; keys a chosen vendor needs cannot be cleared', async () => {
    const refused = await post('/admin/captcha/providers', { pid: PID, provider: 'ALIYUN' });
    expectError(refused, 'E_1');
    expect((refused.body as { error_message: string }).error_message).toBe(
      'ALIYUN cannot be chosen until its keys are set; missing: prefix (ALIYUN_CAPTCHA_PREFIX), sceneId (ALIYUN_CAPTCHA_SCENE_ID), accessKeyId (ALIYUN_ACCESS_KEY_ID), accessKeySecret (ALIYUN_ACCESS_KEY_SECRET).',
    );

    await post('/admin/captcha/providers', { pid: PID, provider: 'NETEASE' });
    const clear = await post('/admin/captcha/vendors/keys/clear', { vendor: 'NETEASE' });
    expectError(clear, 'E_1');
    expect((clear.body as { error_message: string }).error_message).toContain(`NETEASE is the provider of ${PID}`);
    // Public fields with an environment or default value behind them may go.
    expect((await post('/admin/captcha/vendors/keys/clear', { vendor: 'NETEASE', fields: ['endpoint'] })).status).toBe(
      204,
    );
    await post('/admin/captcha/vendors/keys', {
      vendor: 'NETEASE',
      values: { ...NETEASE, endpoint: `${peers.url}/netease/verify` },
      custom_endpoint: true,
    });
    await post('/admin/captcha/providers/clear', { pid: PID });
    expect((await post('/admin/captcha/vendors/keys/clear', { vendor: 'NETEASE' })).status).toBe(204);
    expect(await vendor('NETEASE')).toMatchObject({ configured: false });
    expect((await rawKeys()).filter((r) => r.vendor === 'NETEASE')).toEqual([]);
  });
});

describe('bad input and access', () => {
  test('unknown vendors, fields and providers, bad values and non-http endpoints are E_1', async () => {
    const bodies: [string, unknown][] = [
      ['/admin/captcha/vendors/keys', { vendor: 'RECAPTCHA', values: { key: 'x' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { password: 'x' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { toString: 'x' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: {} }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: ['id'] }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: 'id=x' }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { id: 42 } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { id: '   ' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { key: 'k'.repeat(513) } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { key: 'a\nb' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { apiUrl: 'ftp://api.geetest.com' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { apiUrl: 'javascript:alert(1)' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST', values: { apiUrl: 'http://' } }],
      ['/admin/captcha/vendors/keys', { vendor: 'GEETEST' }],
      ['/admin/captcha/vendors/keys/clear', { vendor: 'GEETEST', fields: ['password'] }],
      ['/admin/captcha/vendors/keys/clear', { vendor: 'geetest' }],
      ['/admin/captcha/vendors/keys/clear', { vendor: 'GEETEST', fields: [] }],
      ['/admin/captcha/providers', { pid: PID, provider: 'RECAPTCHA' }],
      ['/admin/captcha/providers', { pid: 'edu pass', provider: 'SLIDE' }],
      ['/admin/captcha/providers', { pid: PID }],
      ['/admin/captcha/providers/clear', { pid: '' }],
    ];
    for (const [path, body] of bodies) {
      const answer = await post(path, body);
      expect(
        [answer.status, (answer.body as { error_code?: string }).error_code],
        `${path} ${JSON.stringify(body)}`,
      ).toEqual([400, 'E_1']);
    }
    expect((await rawKeys()).filter((r) => r.vendor === 'GEETEST')).toEqual([]);
  });

  test('whatever body arrives, the answer is a catalogue error or success, never a 500', async () => {
    const names = [
      'setCaptchaProvider',
      'clearCaptchaProvider',
      'setCaptchaVendorKeys',
      'clearCaptchaVendorKeys',
    ] as const;
    const value = fc.oneof(fc.anything(), fc.constantFrom('GEETEST', 'SLIDE', '*', 'http://x', ['id'], { id: 'x' }));
    for (const name of names) {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom('pid', 'provider', 'vendor', 'values', 'fields'), value),
          async (body) => {
            const answer = await post(adminRoutes[name].path, body);
            expect(answer.status, `${name} ${JSON.stringify(body)}`).toBeLessThan(500);
            if (answer.status >= 300)
              expect(isServerCode((answer.body as { error_code?: unknown }).error_code)).toBe(true);
          },
        ),
        { numRuns: 30 },
      );
    }
    // Whatever was set on the way is put back, so later tests start from configuration.
    for (const row of await rawKeys()) await post('/admin/captcha/vendors/keys/clear', { vendor: row.vendor });
    await post('/admin/captcha/providers/clear', { pid: '*' });
  });

  test('a user who is not an operator gets E_4 and changes nothing', async () => {
    const user = await signUp(server);
    const before = await rawKeys();
    expectError(
      await call(
        'POST',
        '/admin/captcha/vendors/keys',
        { vendor: 'GEETEST', values: { id: 'x', key: 'y' } },
        { token: user.token },
      ),
      'E_4',
    );
    expectError(
      await call('POST', '/admin/captcha/providers', { pid: PID, provider: 'SLIDE' }, { token: user.token }),
      'E_4',
    );
    expect(await rawKeys()).toEqual(before);
  });
});

import { PEER_KEYS, startVendorPeers, type VendorPeers } from '@edupass/test-kit/captcha-vendor-peers';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let peers: VendorPeers;
let server: TestServer;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  peers = await startVendorPeers();
  server = await startTestServer({ captcha: peers.captchaConfig() });
  call = client(server.url);
});
afterAll(async () => {
  await server.close();
  await peers.close();
});

const lastCall = (vendor: string) => peers.calls.filter((c) => c.vendor === vendor).at(-1);

interface Case {
  vendor: string;
  path: string;
  body: (result: string) => Record<string, unknown>;
  refusal: string;
}

const cases: Case[] = [
  {
    vendor: 'tencent',
    path: '/captcha/tencent',
    body: (r) => ({ appid: PEER_KEYS.tencent.appId, tencentTicket: r, randomStr: '@abc' }),
    refusal: '10017003',
  },
  {
    vendor: 'netease',
    path: '/captcha/netease',
    body: (r) => ({ validate: r, appid: PEER_KEYS.netease.captchaId }),
    refusal: '10017004',
  },
  {
    vendor: 'nextdata',
    path: '/captcha/nextdata',
    body: (r) => ({ rid: r, appid: PEER_KEYS.nextdata.organization }),
    refusal: '10017004',
  },
  {
    vendor: 'aliyun',
    path: '/captcha/aliyun',
    body: (r) => ({ appKey: PEER_KEYS.aliyun.prefix, scene: 'aliyun_login', captchaVerifyParam: r }),
    refusal: '10017004',
  },
];

describe.each(cases)('the $vendor exchange', ({ vendor, path, body, refusal }) => {
  it('asks the vendor with its documented signature and answers a ticket on a pass', async () => {
    const answer = await call<{ ticket: string; appid?: string }>('POST', path, body('pass-1'));
    expect(answer.status).toBe(200);
    expect(answer.body.ticket.length).toBeGreaterThan(20);
    if (vendor === 'aliyun') expect(answer.body.appid).toBe(PEER_KEYS.aliyun.prefix);
    expect(lastCall(vendor)?.signatureOk).toBe(true);
  });

  it(`answers ${refusal} when the vendor says no`, async () => {
    const answer = await call('POST', path, body('fail-1'));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: refusal });
  });

  it('answers 10017001 for an appid that is not ours, without asking the vendor', async () => {
    const before = peers.calls.length;
    const wrong = { ...body('pass-2'), appid: 'not-ours', appKey: 'not-ours' };
    expect((await call('POST', path, wrong)).body).toMatchObject({ error_code: '10017001' });
    expect(peers.calls.length).toBe(before);
  });
});

describe('a vendor ticket', () => {
  it('is bound to the scene and identity the SDK sends, and spent once', async () => {
    const phone = '13700001111';
    const { body } = await call<{ ticket: string }>('POST', '/captcha/netease', {
      validate: 'pass-bound',
      appid: PEER_KEYS.netease.captchaId,
      scene: 'register',
      identity: phone,
    });
    const send = () =>
      call(
        'POST',
        '/tiger/v3/web/accounts/captcha/register/phone/with-agreement',
        { phone_number: phone, pid: 'edupass' },
        {
          headers: { 'X-Captcha-Ticket': body.ticket },
        },
      );
    expect((await send()).status).toBe(204);
    expect((await send()).body).toMatchObject({ error_code: 'GCAP_1' });
  });

  it('works on the main backend spellings too', async () => {
    const answer = await call<{ ticket: string }>('POST', '/tiger/captcha/tickets/waterproof-wall', {
      appid: PEER_KEYS.tencent.appId,
      tencentTicket: 'pass-old',
      randomStr: '@x',
    });
    expect(answer.status).toBe(200);
  });
});

describe('Geetest', () => {
  it('registers with the vendor and answers {gt, challenge, success, new_captcha}', async () => {
    const answer = await call<Record<string, unknown>>('POST', '/captcha/geetest/register', {
      appid: PEER_KEYS.geetest.id,
    });
    expect(answer.body).toMatchObject({ gt: PEER_KEYS.geetest.id, success: 1, new_captcha: true });
    expect(answer.body.challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(lastCall('geetest-register')?.signatureOk).toBe(true);
  });

  it('exchanges a result validate.php confirms, and refuses one it does not with 10017004', async () => {
    const { body: start } = await call<{ challenge: string }>('POST', '/captcha/geetest/register', {
      appid: PEER_KEYS.geetest.id,
    });
    const result = (seccode: string) => ({
      geetest_challenge: start.challenge,
      geetest_validate: 'v',
      geetest_seccode: seccode,
      appid: PEER_KEYS.geetest.id,
    });
    expect((await call('POST', '/captcha/geetest/verify', result('pass|jordan'))).status).toBe(200);
    expect((await call('POST', '/captcha/geetest/verify', result('fail|jordan'))).body).toMatchObject({
      error_code: '10017004',
    });
  });

  it('refuses offline-mode results unless configured to accept them', async () => {
    const down = await startVendorPeers({ geetestDown: true });
    const strict = await startTestServer({ captcha: down.captchaConfig() });
    const lenient = await startTestServer({ captcha: down.captchaConfig({ allowVendorFallback: true }) });
    try {
      for (const [srv, expected] of [
        [strict, 400],
        [lenient, 200],
      ] as const) {
        const c = client(srv.url);
        const { body: start } = await c<{ challenge: string; success: number }>('POST', '/captcha/geetest/register', {
          appid: PEER_KEYS.geetest.id,
        });
        expect(start.success).toBe(0);
        const { createHash } = await import('node:crypto');
        const validate = createHash('md5').update(start.challenge).digest('hex');
        const answer = await c('POST', '/captcha/geetest/verify', {
          geetest_challenge: start.challenge,
          geetest_validate: validate,
          geetest_seccode: `${validate}|jordan`,
          appid: PEER_KEYS.geetest.id,
        });
        expect(answer.status).toBe(expected);
      }
    } finally {
      await strict.close();
      await lenient.close();
      await down.close();
    }
  });
});

describe('fallback results', () => {
  it("refuses Tencent's terror_ tickets without asking Tencent", async () => {
    const before = peers.calls.length;
    const answer = await call('POST', '/captcha/tencent', {
      appid: PEER_KEYS.tencent.appId,
      tencentTicket: `terror_1001_${PEER_KEYS.tencent.appId}_1700000000`,
      randomStr: '@x',
    });
    expect(answer.body).toMatchObject({ error_code: '10017003' });
    expect(peers.calls.length).toBe(before);
  });

  it('refuses when the vendor cannot be reached, unless fallback results are allowed', async () => {
    const unreachable = peers.captchaConfig();
    unreachable.netease = { ...PEER_KEYS.netease, endpoint: 'http://127.0.0.1:9/verify' };
    const srv = await startTestServer({ captcha: unreachable });
    try {
      const answer = await client(srv.url)('POST', '/captcha/netease', {
        validate: 'pass-x',
        appid: PEER_KEYS.netease.captchaId,
      });
      expect(answer.body).toMatchObject({ error_code: '10017004' });
    } finally {
      await srv.close();
    }
  });

  it('answers 10017002 for a vendor that is not configured', async () => {
    const bare = await startTestServer();
    try {
      const answer = await client(bare.url)('POST', '/captcha/nextdata', { rid: 'pass', appid: 'x' });
      expect(answer.body).toMatchObject({ error_code: '10017002' });
    } finally {
      await bare.close();
    }
  });
});

describe('the rule with a vendor as provider', () => {
  it('names the vendor and its appid', async () => {
    const srv = await startTestServer({
      captcha: peers.captchaConfig({ providers: { '*': 'GEETEST' }, policies: { '*:*': 'always' } }),
    });
    try {
      const answer = await client(srv.url)('POST', '/captcha/rule/v3', { identity: '13700002222', scene: 'login' });
      expect(answer.body).toEqual({ rule: 'GEETEST', appid: PEER_KEYS.geetest.id, ticket: '' });
    } finally {
      await srv.close();
    }
  });
});

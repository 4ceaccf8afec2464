/**
 * SMS and voice codes through Aliyun and Tencent Cloud, over the real server's HTTP API, against local
 * peers that check each request's signature as the provider documents it and answer with the
 * provider's own bodies. Refusals become E_6 with words the user can act on; the code is withdrawn.
 */
import { ACCOUNTS_BASE as A, type LoginResult } from '@edupass/protocol';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { aliyunPeer, type SmsPeer, tencentPeer } from '@edupass/test-kit/sms-peers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsConfig } from '../config/delivery-config.ts';

const PID = 'edupass';
let counter = Math.floor(Math.random() * 90_000) + 10_000;
/** A fresh mainland number whose last four digits pick the peer's answer. */
const phoneEnding = (last4: string) => `13${++counter}${last4}`;

const expectE6 = (answer: Answer, words: RegExp) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(502);
  expect(answer.body).toMatchObject({ error_code: 'E_6', error_message: expect.stringMatching(words) });
};

const KEY_ID = 'AKID-test-4f2a';
const SECRET = 'test-secret-9c1e';

interface Case {
  name: 'aliyun' | 'tencent';
  peer: (id: string, secret: string) => Promise<SmsPeer>;
  config: (url: string) => SmsConfig;
  /** The code a recorded request carried. */
  codeOf: (params: Record<string, unknown>) => string;
  smsAction: string;
  voiceAction: string;
  signatureError: RegExp;
}

const base = {
  accessKeyId: KEY_ID,
  accessKeySecret: SECRET,
  signName: 'EduPass',
  template: 'T_DEFAULT',
  templates: { register: 'T_REGISTER' },
  templateParams: ['code', 'minutes'],
  voiceShowNumber: undefined,
  // Generous: a loaded machine must not turn a slow answer into "did not answer". The peer that never
  // answers (0004) is asked through a server of its own with NO_ANSWER_TIMEOUT_MS instead: a send is
  // tried twice, so this limit would cost it 10 s per provider.
  timeoutMs: 5000,
} as const;

/** The time limit of the server that meets the peer that never answers: nothing can answer in time there. */
const NO_ANSWER_TIMEOUT_MS = 500;

const cases: Case[] = [
  {
    name: 'aliyun',
    peer: aliyunPeer,
    config: (url) => ({
      ...base,
      templateParams: ['code', 'minutes'],
      templates: { ...base.templates },
      provider: 'aliyun',
      endpoint: url,
      voiceEndpoint: url,
      region: 'cn-hangzhou',
      appId: undefined,
      voiceTemplate: 'TTS_VOICE',
      voiceAppId: undefined,
    }),
    codeOf: (p) => (JSON.parse(String(p.TemplateParam ?? p.TtsParam)) as { code: string }).code,
    smsAction: 'SendSms',
    voiceAction: 'SingleCallByTts',
    signatureError: /settings.*SignatureDoesNotMatch/,
  },
  {
    name: 'tencent',
    peer: tencentPeer,
    config: (url) => ({
      ...base,
      templateParams: ['code', 'minutes'],
      templates: { ...base.templates },
      provider: 'tencent',
      endpoint: url,
      voiceEndpoint: url,
      region: 'ap-guangzhou',
      appId: '1400006666',
      voiceTemplate: undefined,
      voiceAppId: '1400009999',
    }),
    codeOf: (p) => String(Array.isArray(p.TemplateParamSet) ? p.TemplateParamSet[0] : p.CodeMessage),
    smsAction: 'SendSms',
    voiceAction: 'SendCodeVoice',
    signatureError: /settings.*AuthFailure\.SignatureFailure/,
  },
];

describe.each(cases)('$name SMS', (c) => {
  let peer: SmsPeer;
  let server: TestServer;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    peer = await c.peer(KEY_ID, SECRET);
    server = await startTestServer({ sms: c.config(peer.url) });
    call = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  const sendRegisterCode = (phone: string) =>
    call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID });
  const register = (phone: string, captcha: string) =>
    call('POST', `${A}/register/phone/with-agreement`, {
      phone_number: phone,
      captcha,
      password: 'Kestrel2718',
      agreement_ids: [-1],
      pid: PID,
    });
  const requestsFor = (phone: string) =>
    peer.requests.filter((r) => JSON.stringify(r.params).includes(c.name === 'tencent' ? `+86${phone}` : phone));

  it('sends a signed SendSms with the scene’s template; the code it carries signs the user up', async () => {
    const phone = phoneEnding('5678');
    expect((await sendRegisterCode(phone)).status).toBe(204);
    const [request] = requestsFor(phone);
    expect(request?.action).toBe(c.smsAction);
    const params = request?.params ?? {};
    if (c.name === 'aliyun') {
      expect(params).toMatchObject({ PhoneNumbers: phone, SignName: 'EduPass', TemplateCode: 'T_REGISTER' });
      expect(JSON.parse(String(params.TemplateParam))).toEqual({
        code: expect.stringMatching(/^\d{6}$/),
        minutes: '5',
      });
    } else {
      expect(params).toMatchObject({
        PhoneNumberSet: [`+86${phone}`],
        SmsSdkAppId: '1400006666',
        SignName: 'EduPass',
        TemplateId: 'T_REGISTER',
        TemplateParamSet: [expect.stringMatching(/^\d{6}$/), '5'],
      });
    }
    expect(await server.lastCode(phone)).toBeUndefined();
    const answer = await register(phone, c.codeOf(params));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((answer.body as LoginResult).auth.phone_number).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  });

  it('a refused number is E_6 saying so; tried twice; the code is withdrawn', async () => {
    const phone = phoneEnding('0001');
    expectE6(await sendRegisterCode(phone), /phone number.*(MOBILE_NUMBER_ILLEGAL|IncorrectPhoneNumber)/);
    const tries = requestsFor(phone);
    expect(tries).toHaveLength(2);
    expect((await register(phone, c.codeOf(tries[0]?.params ?? {}))).body).toMatchObject({ error_code: 'AC3_13' });
  });

  it('a sending limit is E_6 saying to try later', async () => {
    expectE6(
      await sendRegisterCode(phoneEnding('0002')),
      /limit.*later.*(BUSINESS_LIMIT_CONTROL|PhoneNumberDailyLimit)/,
    );
  });

  it('one transient failure is retried and the code arrives', async () => {
    const phone = phoneEnding('0003');
    expect((await sendRegisterCode(phone)).status).toBe(204);
    const tries = requestsFor(phone);
    expect(tries.length).toBeGreaterThanOrEqual(1);
    const last = tries[tries.length - 1];
    expect((await register(phone, c.codeOf(last?.params ?? {}))).status).toBe(200);
  });

  it('a provider that does not answer in time is E_6', async () => {
    const impatient = await startTestServer({ sms: { ...c.config(peer.url), timeoutMs: NO_ANSWER_TIMEOUT_MS } });
    try {
      const phone = phoneEnding('0004');
      expectE6(
        await client(impatient.url)('POST', `${A}/captcha/register/phone/with-agreement`, {
          phone_number: phone,
          pid: PID,
        }),
        /did not answer/,
      );
    } finally {
      await impatient.close();
    }
  });

  it('sends voice codes through the voice API', async () => {
    const phone = phoneEnding('6789');
    const answer = await call('POST', `${A}/voice/captcha/send`, { phone_number: phone, type: 'REGISTER', pid: PID });
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    const [request] = requestsFor(phone);
    expect(request?.action).toBe(c.voiceAction);
    expect(request?.params).toMatchObject(
      c.name === 'aliyun'
        ? { CalledNumber: phone, TtsCode: 'TTS_VOICE' }
        : { CalledNumber: `+86${phone}`, VoiceSdkAppid: '1400009999', CodeMessage: expect.stringMatching(/^\d{6}$/) },
    );
    expect((await register(phone, c.codeOf(request?.params ?? {}))).status).toBe(200);
  });

  it('a wrong secret is E_6 telling the operator, with the provider’s signature error', async () => {
    const wrong = await startTestServer({ sms: { ...c.config(peer.url), accessKeySecret: 'not-the-secret' } });
    try {
      expectE6(
        await client(wrong.url)('POST', `${A}/captcha/register/phone/with-agreement`, {
          phone_number: phoneEnding('7890'),
          pid: PID,
        }),
        c.signatureError,
      );
    } finally {
      await wrong.close();
    }
  });
});

describe('voice codes without a voice set-up', () => {
  it('are E_6 saying to ask by SMS', async () => {
    const peer = await aliyunPeer(KEY_ID, SECRET);
    const server = await startTestServer({ sms: { ...cases[0]!.config(peer.url), voiceTemplate: undefined } });
    try {
      const answer = await client(server.url)('POST', `${A}/voice/captcha/send`, {
        phone_number: phoneEnding('4321'),
        type: 'REGISTER',
        pid: PID,
      });
      expectE6(answer, /Voice codes are not available.*SMS/);
      expect(peer.requests).toHaveLength(0);
    } finally {
      await server.close();
      await peer.close();
    }
  });
});

import { CAPTCHA_MESSAGES, ClientCode } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { createCaptcha } from './captcha.ts';
import type { CaptchaError } from './errors.ts';
import type { HttpRequest, HttpResponse, Transport } from './transport.ts';

const recording = (answer: (request: HttpRequest) => HttpResponse) => {
  const calls: HttpRequest[] = [];
  const transport: Transport = async (request) => {
    calls.push(request);
    return answer(request);
  };
  return { calls, transport };
};

const setup = (answer: (request: HttpRequest) => HttpResponse) => {
  const { calls, transport } = recording(answer);
  const captcha = createCaptcha({
    pid: 'pid-1',
    productCode: 'edu',
    platformHost: 'https://platform.test/',
    transport,
    deviceId: async () => 'device-9',
    page: undefined,
  });
  return { calls, captcha };
};

describe('the captcha flow', () => {
  it('asks the platform host for the rule with identity, scene, pid, device id, seconds and the SLIDE capability', async () => {
    const { calls, captcha } = setup(() => ({ status: 200, body: { rule: 'DEFAULT', appid: '', ticket: 't-1' } }));
    const before = Math.floor(Date.now() / 1000);
    await captcha.verify({ identity: '13800138000', scene: 'login' });
    const call = calls[0];
    expect(call?.url).toBe('https://platform.test/captcha/rule/v3');
    expect(call?.method).toBe('POST');
    expect(call?.headers).toMatchObject({ Pid: 'pid-1', 'Product-Code': 'edu', Platform: 'web' });
    const body = call?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      identity: '13800138000',
      scene: 'login',
      pid: 'pid-1',
      deviceId: 'device-9',
      capabilities: ['SLIDE'],
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThan(before + 5);
  });

  it('hands back the ticket of a rule it runs no widget for', async () => {
    const { captcha } = setup(() => ({ status: 200, body: { rule: 'DEFAULT', appid: 'a', ticket: 't-1' } }));
    await expect(captcha.verify({ identity: 'x', scene: 'login' })).resolves.toEqual({
      ticket: 't-1',
      appid: 'a',
      rule: 'DEFAULT',
    });
  });

  it('treats an unknown rule name as "use this ticket now", also when wrapped in data', async () => {
    const { captcha } = setup(() => ({
      status: 200,
      body: { data: { rule: 'FUTURE_VENDOR', appid: 7, ticket: 't-2' } },
    }));
    await expect(captcha.verify({ identity: 'x', scene: 'login' })).resolves.toEqual({
      ticket: 't-2',
      appid: '7',
      rule: 'FUTURE_VENDOR',
    });
  });

  it('fails a rule without widget that carries no ticket', async () => {
    const { captcha } = setup(() => ({ status: 200, body: { rule: 'DEFAULT', appid: '', ticket: '' } }));
    const error = await captcha.verify({ identity: 'x', scene: 'login' }).catch((e: CaptchaError) => e);
    expect(error).toMatchObject({ code: ClientCode.CAPTCHA_REJECTED, name: 'CAPTCHA_REJECTED', rule: 'DEFAULT' });
  });

  it('does not offer SLIDE when the site turns it off', async () => {
    const { calls, transport } = recording(() => ({ status: 200, body: { rule: 'DEFAULT', appid: '', ticket: 't' } }));
    const captcha = createCaptcha({ pid: 'p', transport, deviceId: async () => '', slide: false, page: undefined });
    await captcha.verify({ identity: 'x', scene: 'sms' });
    expect(calls[0]?.body).not.toHaveProperty('capabilities');
  });

  it('reports a server refusal with its wire code and client number', async () => {
    const { captcha } = setup(() => ({
      status: 400,
      body: { error_code: '10017002', error_message: 'No captcha rule.', error_number: 48, error_category: 'captcha' },
    }));
    const error = await captcha.verify({ identity: 'x', scene: 'login' }).catch((e: CaptchaError) => e);
    expect(error).toMatchObject({ code: 48, name: 'NO_CAPTCHA_RULE', serverCode: '10017002', status: 400 });
  });

  it('maps a refusal without error_number by the catalogue (servers that send only error_code)', async () => {
    for (const extra of [{}, { error_number: 9999 }, { error_number: 'x' }]) {
      const body = { error_code: '10017003', error_message: 'Tencent captcha failure.', ...extra };
      const { captcha } = setup(() => ({ status: 400, body }));
      const error = await captcha.verify({ identity: 'x', scene: 'login' }).catch((e: CaptchaError) => e);
      expect(error).toMatchObject({ code: 49, name: 'TENCENT_CAPTCHA_FAIL', serverCode: '10017003', body });
    }
  });

  it('passes an unknown server code through as CAPTCHA_ERROR with the raw body', async () => {
    const body = { error_code: 'VENDOR_X_9', error_message: 'Something new.' };
    const { captcha } = setup(() => ({ status: 400, body }));
    const error = await captcha.verify({ identity: 'x', scene: 'login' }).catch((e: CaptchaError) => e);
    expect(error).toMatchObject({
      code: ClientCode.CAPTCHA_ERROR,
      serverCode: 'VENDOR_X_9',
      status: 400,
      body,
      message: 'Something new.',
    });
  });

  it('turns a network failure into "some error occurred"', async () => {
    const captcha = createCaptcha({
      pid: 'p',
      transport: async () => {
        throw new TypeError('Failed to fetch');
      },
      deviceId: async () => '',
      page: undefined,
    });
    await expect(captcha.verify({ identity: 'x', scene: 'login' })).rejects.toMatchObject({
      message: CAPTCHA_MESSAGES.error,
      code: ClientCode.CAPTCHA_ERROR,
    });
  });

  it('cannot run a widget where there is no page, and says so fatally', async () => {
    const { captcha } = setup(() => ({ status: 200, body: { rule: 'TENCENT', appid: '190', ticket: '' } }));
    await expect(captcha.verify({ identity: 'x', scene: 'login' })).rejects.toMatchObject({
      message: CAPTCHA_MESSAGES.fatal,
      rule: 'TENCENT',
    });
  });

  it('start() calls exactly one callback and never throws', async () => {
    const { captcha } = setup(() => ({ status: 200, body: { rule: 'DEFAULT', appid: '', ticket: '' } }));
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      captcha.start(
        { identity: 'x', scene: 'login' },
        {
          onSuccess: () => {
            seen.push('success');
            resolve();
          },
          onFail: (error) => {
            seen.push(`fail:${error.name}`);
            resolve();
          },
          onClose: () => {
            seen.push('close');
            resolve();
          },
        },
      );
    });
    expect(seen).toEqual(['fail:CAPTCHA_REJECTED']);
  });
});

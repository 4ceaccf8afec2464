/** The WeChat/QQ, SMTP and SMS settings: defaults, the development providers, and each bad value's fix. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('third-party sign-in settings', () => {
  it('without credentials: the development providers, at PUBLIC_URL; in production: off', () => {
    const dev = loadConfig({});
    expect(dev.wechat).toMatchObject({ mode: 'dev', authorizeBase: undefined, apiBase: undefined });
    expect(dev.qq.mode).toBe('dev');
    const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) });
    expect(production.wechat.mode).toBe('off');
    expect(production.qq.mode).toBe('off');
  });

  it('with credentials: the real providers at their documented hosts', () => {
    const config = loadConfig({
      WECHAT_APP_ID: 'wx1',
      WECHAT_APP_SECRET: 's',
      QQ_APP_ID: '101',
      QQ_APP_KEY: 'k',
      QQ_UNIONID: 'true',
    });
    expect(config.wechat).toEqual({
      mode: 'real',
      appId: 'wx1',
      appSecret: 's',
      authorizeBase: 'https://open.weixin.qq.com',
      apiBase: 'https://api.weixin.qq.com',
    });
    expect(config.qq).toMatchObject({ mode: 'real', apiBase: 'https://graph.qq.com', unionid: true });
  });

  it('names the fix for half a credential pair', () => {
    expect(problemsOf({ WECHAT_APP_ID: 'wx1' })).toEqual([
      expect.stringMatching(/WECHAT_APP_ID and WECHAT_APP_SECRET go together/),
    ]);
    expect(problemsOf({ QQ_APP_KEY: 'k' })).toEqual([expect.stringMatching(/QQ_APP_ID and QQ_APP_KEY/)]);
  });
});

describe('delivery settings', () => {
  it('SMTP: port follows SMTP_SECURE; SMTP_FROM is required', () => {
    expect(loadConfig({ SMTP_HOST: 'mail', SMTP_FROM: 'a@b.cn' }).smtp).toMatchObject({ port: 587, secure: false });
    expect(loadConfig({ SMTP_HOST: 'mail', SMTP_FROM: 'a@b.cn', SMTP_PORT: '465' }).smtp).toMatchObject({
      secure: true,
    });
    expect(problemsOf({ SMTP_HOST: 'mail' })).toEqual([expect.stringMatching(/SMTP_FROM/)]);
    expect(problemsOf({ SMTP_HOST: 'mail', SMTP_FROM: 'a@b.cn', SMTP_USER: 'u' })).toEqual([
      expect.stringMatching(/SMTP_USER and SMTP_PASSWORD go together/),
    ]);
  });

  it('SMS: each missing setting is named with what to put there', () => {
    const problems = problemsOf({ SMS_PROVIDER: 'tencent' });
    for (const name of ['SMS_ACCESS_KEY_ID', 'SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE', 'SMS_APP_ID']) {
      expect(problems.some((p) => p.startsWith(`${name} is needed with SMS_PROVIDER=tencent. Fix:`))).toBe(true);
    }
    expect(problemsOf({ SMS_PROVIDER: 'twilio' })).toEqual([expect.stringMatching(/aliyun, tencent or outbox/)]);
  });

  it('SMS: defaults per provider, per-scene templates and template variables', () => {
    const config = loadConfig({
      SMS_PROVIDER: 'aliyun',
      SMS_ACCESS_KEY_ID: 'id',
      SMS_ACCESS_KEY_SECRET: 'secret',
      SMS_SIGN_NAME: 'EduPass',
      SMS_TEMPLATE: 'SMS_1',
      SMS_TEMPLATES: 'login:SMS_2',
      SMS_TEMPLATE_PARAMS: 'code,minutes',
    });
    expect(config.sms).toMatchObject({
      endpoint: 'https://dysmsapi.aliyuncs.com',
      voiceEndpoint: 'https://dyvmsapi.aliyuncs.com',
      region: 'cn-hangzhou',
      templates: { login: 'SMS_2' },
      templateParams: ['code', 'minutes'],
    });
    expect(
      problemsOf({
        SMS_PROVIDER: 'aliyun',
        SMS_ACCESS_KEY_ID: 'i',
        SMS_ACCESS_KEY_SECRET: 's',
        SMS_SIGN_NAME: 'n',
        SMS_TEMPLATE: 't',
        SMS_TEMPLATE_PARAMS: 'code,name',
      }),
    ).toEqual([expect.stringMatching(/SMS_TEMPLATE_PARAMS/)]);
  });
});

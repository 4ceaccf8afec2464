import { CAPTCHA_MESSAGES, CAPTCHA_PARAMS_RETRIES } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import type { CaptchaApi } from '../api.ts';
import { widgetError } from '../errors.ts';
import { fetchGeetestParams } from './geetest.ts';

const rule = { rule: 'GEETEST', appid: 'gt-app', ticket: '' };
const params = { gt: 'g', challenge: 'c', success: 1 as const, new_captcha: true };

const failingApi = (failures: number) => {
  let calls = 0;
  const api = {
    geetestParams: async (appid: string) => {
      calls++;
      if (appid !== 'gt-app') throw new Error('wrong appid');
      if (calls <= failures) throw widgetError();
      return params;
    },
  } as unknown as CaptchaApi;
  return { api, calls: () => calls };
};

describe('Geetest parameter fetch', () => {
  it(`is retried ${CAPTCHA_PARAMS_RETRIES} times`, async () => {
    const { api, calls } = failingApi(CAPTCHA_PARAMS_RETRIES);
    await expect(fetchGeetestParams({ api, rule })).resolves.toEqual(params);
    expect(calls()).toBe(CAPTCHA_PARAMS_RETRIES + 1);
  });

  it("then fails with the spec's text", async () => {
    const { api, calls } = failingApi(CAPTCHA_PARAMS_RETRIES + 1);
    await expect(fetchGeetestParams({ api, rule })).rejects.toMatchObject({
      message: 'Get geetest init params fail, please reload the page or try again later.',
      name: 'CAPTCHA_ERROR',
    });
    expect(CAPTCHA_MESSAGES.geetestParams).toBe(
      'Get geetest init params fail, please reload the page or try again later.',
    );
    expect(calls()).toBe(CAPTCHA_PARAMS_RETRIES + 1);
  });
});

/**
 * Each adapter hands the verification's language to its vendor's widget in that vendor's own option
 * and values. The vendor here is a stub that records its configuration and then fails to start, so no
 * page or server is needed; the Chromium vendor tests check the same from the page through.
 */
import { describe, expect, it } from 'vitest';
import type { CaptchaApi } from '../api.ts';
import type { Page } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import type { Overlay } from '../overlay.ts';
import { aliyun } from './aliyun.ts';
import { geetest } from './geetest.ts';
import { netease } from './netease.ts';
import { nextdata } from './nextdata.ts';
import type { Provider, ProviderContext } from './provider.ts';
import { tencent } from './tencent.ts';

/** The vendor's global, its language option, and the values the vendor documents for our two locales. */
const VENDORS: [string, Provider, string, string, Record<CaptchaLocale, string>][] = [
  ['Geetest', geetest, 'initGeetest', 'lang', { 'zh-CN': 'zh-cn', en: 'en' }],
  ['Tencent', tencent, 'TencentCaptcha', 'userLanguage', { 'zh-CN': 'zh-cn', en: 'en' }],
  ['NetEase Yidun', netease, 'initNECaptcha', 'lang', { 'zh-CN': 'zh-CN', en: 'en' }],
  ['Shumei', nextdata, 'initSMCaptcha', 'lang', { 'zh-CN': 'zh-cn', en: 'en' }],
  ['Aliyun', aliyun, 'initAliyunCaptcha', 'language', { 'zh-CN': 'cn', en: 'en' }],
];

/** Starts the adapter with a stub vendor; resolves with the configuration the vendor was given. */
const startedWith = async (provider: Provider, global: string, locale: CaptchaLocale) => {
  let config: Record<string, unknown> | undefined;
  // Tencent's is a constructor taking (appid, callback, options); the others take the configuration first.
  function vendor(...args: unknown[]) {
    config = (global === 'TencentCaptcha' ? args[2] : args[0]) as Record<string, unknown>;
    throw new Error('stub vendor');
  }
  const element = () => ({ id: '', click() {} });
  const page = {
    window: { [global]: vendor },
    document: { createElement: element },
  } as unknown as Page;
  const context = {
    rule: { rule: 'X', appid: 'app', ticket: '' },
    request: { identity: 'i', scene: 'login' },
    api: {
      geetestParams: async () => ({ gt: 'g', challenge: 'c', success: 1, new_captcha: true }),
    } as unknown as CaptchaApi,
    page,
    overlay: { mask: { append() {} }, container: undefined } as unknown as Overlay,
    timers: { setTimeout: () => 0, clearTimeout() {}, now: () => 0 },
    locale,
    loadScript: async () => {},
    onCleanup() {},
    aliyunSceneId: 'scene',
    nextdataAppId: 'default',
  } satisfies ProviderContext;
  await expect(provider.run(context)).rejects.toMatchObject({ name: 'CAPTCHA_ERROR' });
  return config;
};

describe.each(VENDORS)("%s's widget", (_name, provider, global, option, values) => {
  it.each(['zh-CN', 'en'] as const)(`starts in %s via its \`${option}\` option`, async (locale) => {
    const config = await startedWith(provider, global, locale);
    expect(config?.[option]).toBe(values[locale]);
  });
});

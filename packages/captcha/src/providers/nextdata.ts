/** NextData, i.e. Shumei (smcp.min.js `initSMCaptcha`): popup slide; the `rid` of a pass is exchanged for a ticket. */
import { CAPTCHA_WIDGET_WIDTH, isRecord } from '@edupass/protocol';
import { fatal, rejected, widgetError } from '../errors.ts';
import { windowProperty } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import { deferred, method, type Provider, type ProviderOutcome } from './provider.ts';

/** smcp.min.js `lang` (Shumei's Web SDK manual, startup parameters): lower case, unlike Yidun's 'zh-CN'. */
export const NEXTDATA_LANG: Readonly<Record<CaptchaLocale, string>> = { 'zh-CN': 'zh-cn', en: 'en' };

export const nextdata: Provider = {
  box: false,
  async run(context) {
    await context.loadScript();
    const initSMCaptcha = windowProperty(context.page, 'initSMCaptcha');
    if (typeof initSMCaptcha !== 'function') throw fatal();
    const { appid } = context.rule;
    const outcome = deferred<ProviderOutcome>();
    const onReady = (captcha: unknown) => {
      const on = (event: string, handler: (...args: unknown[]) => void) => method(captcha, event)?.(handler);
      on('onReady', () => method(captcha, 'verify')?.());
      on('onSuccess', (data) => {
        if (!isRecord(data) || data.pass !== true || typeof data.rid !== 'string') {
          outcome.reject(rejected(undefined, { body: data }));
          return;
        }
        context.api.nextdataCheck({ rid: data.rid, appid, ...context.request }).then(outcome.resolve, outcome.reject);
      });
      on('onError', (type, detail) => outcome.reject(widgetError(undefined, { cause: { type, detail } })));
      on('onClose', () => outcome.resolve('closed'));
      context.onCleanup(() => method(captcha, 'destroy')?.());
    };
    try {
      (initSMCaptcha as (config: object, ready: (captcha: unknown) => void) => void)(
        {
          organization: appid,
          appId: context.nextdataAppId,
          product: 'popup',
          mode: 'slide',
          width: CAPTCHA_WIDGET_WIDTH,
          https: true,
          lang: NEXTDATA_LANG[context.locale],
        },
        onReady,
      );
    } catch (cause) {
      throw fatal({ cause });
    }
    return outcome.promise;
  },
};

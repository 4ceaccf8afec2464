/** Tencent Captcha (TCaptcha.js `new TencentCaptcha(appid, callback, options)`): its own dialog; ticket + randstr exchanged. */
import { isRecord } from '@edupass/protocol';
import { fatal, widgetError } from '../errors.ts';
import { windowProperty } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import { deferred, method, type Provider, type ProviderOutcome } from './provider.ts';

/**
 * TCaptcha.js `userLanguage` (Tencent Cloud's Web integration guide, options table): it wins over the
 * language set in the console; Tencent documents it for the slide puzzle only.
 */
export const TENCENT_LANG: Readonly<Record<CaptchaLocale, string>> = { 'zh-CN': 'zh-cn', en: 'en' };

/**
 * Tencent's documented disaster recovery: when TCaptcha.js cannot load, the page still sends a
 * `terror_1001_<appid>_<seconds>` ticket and the business server decides. Ours refuses such tickets
 * unless configured to accept them.
 */
export const tencentFallbackTicket = (appid: string, nowMs: number) => ({
  tencentTicket: `terror_1001_${appid}_${Math.floor(nowMs / 1000)}`,
  randomStr: `@${Math.random().toString(36).slice(2, 5)}`,
});

export const tencent: Provider = {
  box: false,
  async run(context) {
    const { appid } = context.rule;
    try {
      await context.loadScript();
    } catch {
      return context.api.tencentCheck({ appid, ...tencentFallbackTicket(appid, Date.now()), ...context.request });
    }
    const TencentCaptcha = windowProperty(context.page, 'TencentCaptcha');
    if (typeof TencentCaptcha !== 'function') throw fatal();
    const outcome = deferred<ProviderOutcome>();
    const callback = (result: unknown) => {
      if (!isRecord(result)) {
        outcome.reject(widgetError());
      } else if (result.ret === 0 && typeof result.ticket === 'string') {
        const randomStr = typeof result.randstr === 'string' ? result.randstr : '';
        context.api
          .tencentCheck({ appid, tencentTicket: result.ticket, randomStr, ...context.request })
          .then(outcome.resolve, outcome.reject);
      } else if (result.ret === 2) {
        outcome.resolve('closed');
      } else {
        outcome.reject(widgetError(undefined, { body: result }));
      }
    };
    try {
      const captcha: unknown = new (TencentCaptcha as new (id: string, cb: (r: unknown) => void, o: object) => unknown)(
        appid,
        callback,
        { userLanguage: TENCENT_LANG[context.locale] },
      );
      context.onCleanup(() => method(captcha, 'destroy')?.());
      const show = method(captcha, 'show');
      if (!show) throw new Error('TencentCaptcha has no show()');
      show();
    } catch (cause) {
      throw fatal({ cause });
    }
    return outcome.promise;
  },
};

/** NetEase Yidun (load.min.js `initNECaptcha`): popup mode; the `validate` string is exchanged for a ticket. */
import { CAPTCHA_WIDGET_WIDTH, isRecord } from '@edupass/protocol';
import { fatal, rejected } from '../errors.ts';
import { windowProperty } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import { deferred, method, type Provider, type ProviderOutcome } from './provider.ts';

/** load.min.js `lang` (Yidun's default is 'zh-CN'). */
export const NETEASE_LANG: Readonly<Record<CaptchaLocale, string>> = { 'zh-CN': 'zh-CN', en: 'en' };

export const netease: Provider = {
  box: false,
  async run(context) {
    await context.loadScript();
    const initNECaptcha = windowProperty(context.page, 'initNECaptcha');
    if (typeof initNECaptcha !== 'function') throw fatal();
    const { appid } = context.rule;
    const outcome = deferred<ProviderOutcome>();
    // Popup mode still wants an element to attach to; an empty one on our mask keeps the page untouched.
    const element = context.page.document.createElement('div');
    context.overlay.mask.append(element);
    try {
      (initNECaptcha as (config: object, onload: (i: unknown) => void, onerror: (e: unknown) => void) => void)(
        {
          captchaId: appid,
          element,
          mode: 'popup',
          apiVersion: 2,
          width: `${CAPTCHA_WIDGET_WIDTH}px`,
          lang: NETEASE_LANG[context.locale],
          onVerify: (error: unknown, data: unknown) => {
            if (error || !isRecord(data) || typeof data.validate !== 'string') {
              outcome.reject(rejected(undefined, { cause: error }));
              return;
            }
            context.api
              .neteaseCheck({ validate: data.validate, appid, ...context.request })
              .then(outcome.resolve, outcome.reject);
          },
          onClose: () => outcome.resolve('closed'),
        },
        (instance) => {
          context.onCleanup(() => method(instance, 'destroy')?.());
          const popUp = method(instance, 'popUp');
          if (popUp) popUp();
          else outcome.reject(fatal());
        },
        (cause) => outcome.reject(fatal({ cause })),
      );
    } catch (cause) {
      throw fatal({ cause });
    }
    return outcome.promise;
  },
};

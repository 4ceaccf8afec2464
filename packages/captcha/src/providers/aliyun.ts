/**
 * Aliyun captcha 2.0 (AliyunCaptcha.js `initAliyunCaptcha`): the widget hands us `captchaVerifyParam`
 * and waits for our server's verdict, so the exchange runs inside its callback.
 */
import { CAPTCHA_MESSAGES, CAPTCHA_WIDGET_WIDTH, type CaptchaTicketResponse } from '@edupass/protocol';
import { CaptchaError, fatal, rejected, widgetError } from '../errors.ts';
import { setWindowProperty, windowProperty } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import { deferred, method, type Provider, type ProviderOutcome } from './provider.ts';

/** AliyunCaptcha.js `language` (Aliyun's "custom text and multi-language settings" page). */
export const ALIYUN_LANGUAGE: Readonly<Record<CaptchaLocale, string>> = { 'zh-CN': 'cn', en: 'en' };

let aliyunCount = 0;

export const aliyun: Provider = {
  box: false,
  async run(context) {
    const { appid } = context.rule;
    // The script reads its region and identity prefix from this global when it loads.
    setWindowProperty(context.page, 'AliyunCaptchaConfig', { region: 'cn', prefix: appid });
    await context.loadScript();
    const initAliyunCaptcha = windowProperty(context.page, 'initAliyunCaptcha');
    if (typeof initAliyunCaptcha !== 'function') throw fatal();
    const outcome = deferred<ProviderOutcome>();
    const { document } = context.page;
    const id = `edupass-aliyun-${++aliyunCount}`;
    const element = document.createElement('div');
    element.id = `${id}-element`;
    // Popup mode opens on a click of its trigger button; ours is invisible and clicked by us.
    const button = document.createElement('button');
    button.id = `${id}-button`;
    button.type = 'button';
    button.hidden = true;
    context.overlay.mask.append(element, button);
    let ticket: CaptchaTicketResponse | undefined;
    try {
      (initAliyunCaptcha as (config: object) => void)({
        SceneId: context.aliyunSceneId,
        mode: 'popup',
        element: `#${element.id}`,
        button: `#${button.id}`,
        slideStyle: { width: CAPTCHA_WIDGET_WIDTH, height: 40 },
        language: ALIYUN_LANGUAGE[context.locale],
        captchaVerifyCallback: async (captchaVerifyParam: unknown) => {
          if (typeof captchaVerifyParam !== 'string') {
            outcome.reject(rejected(CAPTCHA_MESSAGES.aliyunFailed));
            return { captchaResult: false, bizResult: false };
          }
          try {
            const answer = await context.api.aliyunCheck({
              appKey: appid,
              scene: context.aliyunSceneId,
              captchaVerifyParam,
              captchaScene: context.request.scene,
              identity: context.request.identity,
            });
            ticket = { ticket: answer.ticket, appid: answer.appid ?? appid };
            return { captchaResult: true, bizResult: true };
          } catch (error) {
            const refused = error instanceof CaptchaError && error.name === 'CAPTCHA_REJECTED';
            outcome.reject(
              refused
                ? rejected(CAPTCHA_MESSAGES.aliyunFailed, { cause: error })
                : widgetError(CAPTCHA_MESSAGES.aliyunError, { cause: error }),
            );
            return { captchaResult: false, bizResult: false };
          }
        },
        onBizResultCallback: (bizResult: unknown) => {
          if (bizResult === true && ticket) outcome.resolve(ticket);
          else outcome.reject(rejected(CAPTCHA_MESSAGES.aliyunFailed));
        },
        getInstance: (instance: unknown) => context.onCleanup(() => method(instance, 'destroy')?.()),
        onError: (cause: unknown) => outcome.reject(widgetError(CAPTCHA_MESSAGES.aliyunError, { cause })),
        onClose: () => outcome.resolve('closed'),
      });
    } catch (cause) {
      throw fatal({ cause });
    }
    button.click();
    return outcome.promise;
  },
};

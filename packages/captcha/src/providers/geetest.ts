/** Geetest v3 (gt.js `initGeetest`): parameters from our server, the widget in our box, the result exchanged for a ticket. */
import {
  CAPTCHA_MESSAGES,
  CAPTCHA_PARAMS_RETRIES,
  CAPTCHA_WIDGET_WIDTH,
  type GeetestParams,
  isRecord,
} from '@edupass/protocol';
import { fatal, rejected, widgetError } from '../errors.ts';
import { windowProperty } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import { deferred, method, type Provider, type ProviderContext, type ProviderOutcome } from './provider.ts';

/** gt.js `lang` (docs.geetest.com/captcha/apirefer/api/web). */
export const GEETEST_LANG: Readonly<Record<CaptchaLocale, string>> = { 'zh-CN': 'zh-cn', en: 'en' };

/** §4: the parameter fetch is retried CAPTCHA_PARAMS_RETRIES times before giving up with the spec's text. */
export const fetchGeetestParams = async (context: Pick<ProviderContext, 'api' | 'rule'>): Promise<GeetestParams> => {
  let last: unknown;
  for (let attempt = 0; attempt <= CAPTCHA_PARAMS_RETRIES; attempt++) {
    try {
      return await context.api.geetestParams(context.rule.appid);
    } catch (error) {
      last = error;
    }
  }
  throw widgetError(CAPTCHA_MESSAGES.geetestParams, { cause: last });
};

const readValidate = (value: unknown) => {
  if (!isRecord(value)) return undefined;
  const { geetest_challenge, geetest_validate, geetest_seccode } = value;
  if (
    typeof geetest_challenge !== 'string' ||
    typeof geetest_validate !== 'string' ||
    typeof geetest_seccode !== 'string'
  ) {
    return undefined;
  }
  return { geetest_challenge, geetest_validate, geetest_seccode };
};

export const geetest: Provider = {
  box: true,
  async run(context) {
    const params = await fetchGeetestParams(context);
    await context.loadScript();
    const initGeetest = windowProperty(context.page, 'initGeetest');
    if (typeof initGeetest !== 'function') throw fatal();
    const outcome = deferred<ProviderOutcome>();
    const onReady = (captchaObj: unknown) => {
      const on = (event: string, handler: (...args: unknown[]) => void) => method(captchaObj, event)?.(handler);
      on('onSuccess', () => {
        const validate = readValidate(method(captchaObj, 'getValidate')?.());
        if (!validate) {
          outcome.reject(rejected());
          return;
        }
        context.api
          .geetestVerify({ ...validate, appid: context.rule.appid, ...context.request })
          .then(outcome.resolve, outcome.reject);
      });
      on('onError', (cause) => outcome.reject(widgetError(undefined, { cause })));
      on('onClose', () => outcome.resolve('closed'));
      context.onCleanup(() => method(captchaObj, 'destroy')?.());
      const appendTo = method(captchaObj, 'appendTo');
      if (!appendTo || !context.overlay.container) {
        outcome.reject(fatal());
        return;
      }
      appendTo(context.overlay.container);
    };
    try {
      (initGeetest as (config: Record<string, unknown>, ready: (captchaObj: unknown) => void) => void)(
        {
          gt: params.gt,
          challenge: params.challenge,
          // success 0 is Geetest's offline fallback; our server refuses its results unless configured to accept them.
          offline: params.success !== 1,
          new_captcha: params.new_captcha,
          product: 'float',
          width: `${CAPTCHA_WIDGET_WIDTH}px`,
          lang: GEETEST_LANG[context.locale],
        },
        onReady,
      );
    } catch (cause) {
      throw fatal({ cause });
    }
    return outcome.promise;
  },
};

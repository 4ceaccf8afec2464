/**
 * The captcha flow of spec §4: ask for the rule; a rule with no widget hands back its ticket (or
 * fails when there is none); otherwise the provider's widget runs in the overlay and its result is
 * exchanged for a ticket. Every outcome reaches exactly one callback and settles the promise.
 */
import { ALIYUN_LOGIN_SCENE, CAPTCHA_MESSAGES, type CaptchaRule, CoreCode, SLIDE_RULE } from '@edupass/protocol';
import { type CaptchaApi, createApi } from './api.ts';
import { fingerprintDeviceId, memoizeDeviceId } from './device-id.ts';
import { CaptchaError, closedError, isCaptchaError, widgetError, withRule } from './errors.ts';
import { currentPage, defaultTimers, type Page, type Timers } from './globals.ts';
import { type CaptchaLocale, chooseLocale } from './locale.ts';
import { openOverlay } from './overlay.ts';
import { aliyun } from './providers/aliyun.ts';
import { geetest } from './providers/geetest.ts';
import { netease } from './providers/netease.ts';
import { nextdata } from './providers/nextdata.ts';
import type { Provider } from './providers/provider.ts';
import { slide } from './providers/slide.ts';
import { tencent } from './providers/tencent.ts';
import { loadScript } from './script-loader.ts';
import { fetchTransport, type Transport } from './transport.ts';

export type WidgetRule = Exclude<CaptchaRule, 'DEFAULT'>;

/** Where each vendor's script comes from by default; sites that mirror them set `scripts`. */
export const DEFAULT_SCRIPTS: Readonly<Record<Exclude<WidgetRule, typeof SLIDE_RULE>, string>> = {
  GEETEST: 'https://static.geetest.com/static/js/gt.0.5.0.js',
  TENCENT: 'https://turing.captcha.qcloud.com/TCaptcha.js',
  NETEASE: 'https://cstaticdun.126.net/load.min.js',
  NEXTDATA: 'https://castatic.fengkongcloud.cn/pr/v1.0.4/smcp.min.js',
  ALIYUN: 'https://o.alicdn.com/captcha-frontend/aliyunCaptcha/AliyunCaptcha.js',
};

const PROVIDERS: Readonly<Record<WidgetRule, Provider>> = {
  GEETEST: geetest,
  TENCENT: tencent,
  NETEASE: netease,
  NEXTDATA: nextdata,
  ALIYUN: aliyun,
  SLIDE: slide,
};

export interface CaptchaOptions {
  /** Product id sent with the rule request. */
  pid: string;
  /** Base URL of the platform service. @default '' (this origin) */
  platformHost?: string;
  /** Base URL of the main backend. @default '' (this origin) */
  tigerHost?: string;
  /** Sent as the Product-Code header. */
  productCode?: string;
  /** Sent as the Platform header. @default 'web' */
  platform?: string;
  /** Vendor script URLs. @default DEFAULT_SCRIPTS */
  scripts?: Partial<Record<keyof typeof DEFAULT_SCRIPTS, string>>;
  /** Tries per vendor script. @default 3 */
  scriptAttempts?: number;
  /** Per-request time-out. @default 20000 */
  requestTimeoutMs?: number;
  /** Offer EduPass's slide puzzle to the rule service. @default true */
  slide?: boolean;
  /** Aliyun SceneId the widget starts with. @default 'aliyun_login' */
  aliyunSceneId?: string;
  /** Shumei appId. @default 'default' */
  nextdataAppId?: string;
  transport?: Transport;
  timers?: Timers;
  /** The device id of the rule request. @default FingerprintJS, '' on failure */
  deviceId?: () => Promise<string>;
  /** The page to draw in. @default the global window and document */
  page?: Page;
  /**
   * The language of the overlay, the slide puzzle and the vendors' widgets; a request's `locale` wins over it.
   * @default the page's `<html lang>`, else the browser's language: any Chinese is 'zh-CN', the rest 'en'
   */
  locale?: CaptchaLocale;
}

export interface CaptchaRequest {
  /** Who is verifying: a phone number, username or e-mail. */
  identity: string;
  /** What for: 'login', 'sms', … (servers accept any name). */
  scene: string;
  /** The language to show this verification in, for pages that switch language. @default options.locale */
  locale?: CaptchaLocale;
}

export interface CaptchaSuccess {
  ticket: string;
  /** The vendor appid, sent as X-Captcha-Id. */
  appid: string;
  rule: string;
}

export interface CaptchaCallbacks {
  onSuccess?(result: CaptchaSuccess): void;
  onFail?(error: CaptchaError): void;
  onClose?(): void;
}

const isWidgetRule = (rule: string): rule is WidgetRule => Object.hasOwn(PROVIDERS, rule);

export const createCaptcha = (options: CaptchaOptions) => {
  const timers = options.timers ?? defaultTimers;
  const headers: Record<string, string> = { Pid: options.pid, Platform: options.platform ?? 'web' };
  if (options.productCode !== undefined) headers['Product-Code'] = options.productCode;
  const api: CaptchaApi = createApi({
    platformHost: options.platformHost ?? '',
    tigerHost: options.tigerHost ?? '',
    headers,
    transport: options.transport ?? fetchTransport,
    ...(options.requestTimeoutMs === undefined ? {} : { timeoutMs: options.requestTimeoutMs }),
  });
  const deviceId =
    options.deviceId ?? memoizeDeviceId(() => fingerprintDeviceId({ timers, page: options.page ?? currentPage() }));

  const runWidget = async (
    rule: WidgetRule,
    ruleAnswer: Awaited<ReturnType<CaptchaApi['rule']>>,
    request: CaptchaRequest,
  ) => {
    const page = options.page ?? currentPage();
    if (!page) throw widgetError(CAPTCHA_MESSAGES.fatal);
    const provider = PROVIDERS[rule];
    const locale = chooseLocale(request.locale ?? options.locale, page);
    const overlay = openOverlay(page.document, { box: provider.box, timers, locale });
    const cleanups: (() => void)[] = [];
    try {
      const outcome = await Promise.race([
        provider.run({
          rule: ruleAnswer,
          request: { identity: request.identity, scene: request.scene },
          api,
          page,
          overlay,
          timers,
          locale,
          loadScript: () => {
            const url = rule === SLIDE_RULE ? undefined : (options.scripts?.[rule] ?? DEFAULT_SCRIPTS[rule]);
            if (url === undefined) return Promise.resolve();
            return loadScript(page.document, url, { attempts: options.scriptAttempts ?? 3, timers });
          },
          onCleanup: (fn) => cleanups.push(fn),
          aliyunSceneId: options.aliyunSceneId ?? ALIYUN_LOGIN_SCENE,
          nextdataAppId: options.nextdataAppId ?? 'default',
        }),
        overlay.closeRequested.then(() => 'closed' as const),
      ]);
      if (outcome === 'closed') throw closedError(rule);
      return { ticket: outcome.ticket, appid: outcome.appid ?? ruleAnswer.appid, rule };
    } finally {
      for (const fn of cleanups) {
        try {
          fn();
        } catch {
          // A vendor's teardown failing must not hide the outcome.
        }
      }
      overlay.finish();
    }
  };

  const run = async (request: CaptchaRequest): Promise<CaptchaSuccess> => {
    const ruleAnswer = await api.rule({
      identity: request.identity,
      scene: request.scene,
      pid: options.pid,
      deviceId: await deviceId(),
      timestamp: Math.floor(Date.now() / 1000),
      ...(options.slide === false ? {} : { capabilities: [SLIDE_RULE] }),
    });
    const rule = ruleAnswer.rule;
    if (!isWidgetRule(rule)) {
      // §4.2: a rule we run no widget for means "use this ticket now".
      if (ruleAnswer.ticket === '') {
        throw new CaptchaError(CoreCode.CAPTCHA_REJECTED, CAPTCHA_MESSAGES.noTicket, { rule });
      }
      return { ticket: ruleAnswer.ticket, appid: ruleAnswer.appid, rule };
    }
    try {
      return await runWidget(rule, ruleAnswer, request);
    } catch (error) {
      throw withRule(isCaptchaError(error) ? error : widgetError(undefined, { cause: error }), rule);
    }
  };

  const verify = async (request: CaptchaRequest): Promise<CaptchaSuccess> => {
    try {
      return await run(request);
    } catch (caught) {
      throw isCaptchaError(caught) ? caught : widgetError(undefined, { cause: caught });
    }
  };

  return {
    /** Runs the whole flow: resolves with the ticket, rejects with `CaptchaError` (`CAPTCHA_CLOSED` when closed). */
    verify,
    /** The spec's callback form of `verify`: exactly one callback is called, and nothing is thrown. */
    start(request: CaptchaRequest, callbacks: CaptchaCallbacks): void {
      verify(request).then(
        (result) => callbacks.onSuccess?.(result),
        (error: CaptchaError) => {
          if (error.code === CoreCode.CAPTCHA_CLOSED) callbacks.onClose?.();
          else callbacks.onFail?.(error);
        },
      );
    },
    api,
  };
};

export type Captcha = ReturnType<typeof createCaptcha>;

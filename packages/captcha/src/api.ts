/** The captcha calls of the route table (spec §7), with their answers parsed and failures turned into `CaptchaError`. */
import {
  aliyunCheckRoute,
  CAPTCHA_CODE_NUMBERS,
  type CaptchaRuleRequest,
  type CaptchaRuleResponse,
  type CaptchaTicketResponse,
  CoreCode,
  captchaRuleRoute,
  type GeetestParams,
  geetestRegisterRoute,
  geetestVerifyRoute,
  neteaseCheckRoute,
  nextdataCheckRoute,
  REQUEST_TIMEOUT_MS,
  readWireError,
  type SlideAnswer,
  type SlideChallenge,
  slideChallengeRoute,
  slideVerifyRoute,
  tencentCheckRoute,
  type WireRoute,
} from '@edupass/protocol';
import { CaptchaError, rejected, widgetError } from './errors.ts';
import { parseGeetestParams, parseRule, parseSlideChallenge, parseTicket } from './parse.ts';
import type { Transport } from './transport.ts';

export interface ApiOptions {
  /** Base URL of the platform service (rule, exchanges, slide puzzle). '' means this origin. */
  platformHost: string;
  /** Base URL of the main backend, for the tiger routes. '' means this origin. */
  tigerHost: string;
  /** Headers on every call: product code, pid and platform (§3). */
  headers: Record<string, string>;
  transport: Transport;
  timeoutMs?: number;
}

/** The scene and identity the rule was asked for; the server binds the ticket to them. */
export interface Binding {
  scene?: string;
  identity?: string;
}

// Imported one by one rather than through the route table, so the bundle carries only these.
const ROUTES = {
  captchaRule: captchaRuleRoute,
  geetestRegister: geetestRegisterRoute,
  geetestVerify: geetestVerifyRoute,
  tencentCheck: tencentCheckRoute,
  neteaseCheck: neteaseCheckRoute,
  nextdataCheck: nextdataCheckRoute,
  aliyunCheck: aliyunCheckRoute,
  slideChallenge: slideChallengeRoute,
  slideVerify: slideVerifyRoute,
} satisfies Record<string, WireRoute>;
type CaptchaRoute = keyof typeof ROUTES;

/**
 * A refusal from the server, kept with its wire code so callers can tell a vendor "no" from an outage.
 * Without a known `error_number` the catalogue maps `error_code`; an unknown code is CAPTCHA_ERROR.
 */
const serverError = (status: number, body: unknown): CaptchaError => {
  const wire = readWireError(body, CAPTCHA_CODE_NUMBERS, CoreCode.CAPTCHA_ERROR);
  const serverCode = wire?.serverCode;
  return new CaptchaError(wire?.code ?? CoreCode.CAPTCHA_ERROR, wire?.message ?? `HTTP ${status}`, {
    status,
    body,
    ...(serverCode === undefined ? {} : { serverCode }),
  });
};

export const createApi = (options: ApiOptions) => {
  const call = async (name: CaptchaRoute, body: unknown): Promise<unknown> => {
    const route: WireRoute = ROUTES[name];
    const base = route.host === 'platform' ? options.platformHost : options.tigerHost;
    let response: Awaited<ReturnType<Transport>>;
    try {
      response = await options.transport({
        method: 'POST',
        url: `${base.replace(/\/$/, '')}${route.path}`,
        headers: { 'Content-Type': 'application/json', ...options.headers },
        body,
        timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      });
    } catch (cause) {
      throw widgetError(undefined, { cause });
    }
    if (response.status < 200 || response.status >= 300) throw serverError(response.status, response.body);
    return response.body;
  };

  const expect = <T>(value: T | undefined, body: unknown): T => {
    if (value === undefined) throw widgetError(undefined, { body });
    return value;
  };

  /** An exchange the vendor or our checker refused reads as 'incorrect captcha checking' (§8), keeping the wire code. */
  const exchange = async (name: CaptchaRoute, body: unknown): Promise<CaptchaTicketResponse> => {
    try {
      const answer = await call(name, body);
      return expect(parseTicket(answer), answer);
    } catch (error) {
      if (error instanceof CaptchaError && error.status !== undefined && error.status < 500) {
        throw rejected(undefined, {
          ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
          status: error.status,
          body: error.body,
          cause: error,
        });
      }
      throw error;
    }
  };

  return {
    async rule(request: CaptchaRuleRequest): Promise<CaptchaRuleResponse> {
      const answer = await call('captchaRule', request);
      return expect(parseRule(answer), answer);
    },
    async geetestParams(appid: string): Promise<GeetestParams> {
      const answer = await call('geetestRegister', { appid });
      return expect(parseGeetestParams(answer), answer);
    },
    geetestVerify: (
      body: { geetest_challenge: string; geetest_validate: string; geetest_seccode: string; appid: string } & Binding,
    ) => exchange('geetestVerify', body),
    tencentCheck: (body: { appid: string; tencentTicket: string; randomStr: string } & Binding) =>
      exchange('tencentCheck', body),
    neteaseCheck: (body: { validate: string; appid: string } & Binding) => exchange('neteaseCheck', body),
    nextdataCheck: (body: { rid: string; appid: string } & Binding) => exchange('nextdataCheck', body),
    /** `scene` is Aliyun's own scene; the binding scene goes as `captchaScene`. */
    aliyunCheck: (body: {
      appKey: string;
      scene: string;
      captchaVerifyParam: string;
      captchaScene?: string;
      identity?: string;
    }) => exchange('aliyunCheck', body),
    async slideChallenge(body: { scene: string; identity: string; deviceId?: string }): Promise<SlideChallenge> {
      const answer = await call('slideChallenge', body);
      return expect(parseSlideChallenge(answer), answer);
    },
    slideVerify: (answer: SlideAnswer) => exchange('slideVerify', answer),
  };
};

export type CaptchaApi = ReturnType<typeof createApi>;

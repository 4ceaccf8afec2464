/** The one error class of the captcha SDK: every failure rejects with it, and `onFail` receives it. */
import { CAPTCHA_MESSAGES, CoreCode, type CoreCodeName, coreCodeName } from '@edupass/protocol';

export interface CaptchaErrorDetails {
  /** The server's `error_code` when the server refused. */
  serverCode?: string;
  status?: number;
  /** The raw answer body when the server refused. */
  body?: unknown;
  /** The rule that was running. */
  rule?: string;
  cause?: unknown;
}

export class CaptchaError extends Error {
  /** Client code number of the catalogue (`CoreCode`). */
  readonly code: number;
  /** Catalogue name of `code`. */
  override readonly name: CoreCodeName | (string & {});
  readonly serverCode: string | undefined;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly rule: string | undefined;

  constructor(code: number, message: string, details: CaptchaErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.name = coreCodeName(code) ?? 'CAPTCHA_ERROR';
    this.serverCode = details.serverCode;
    this.status = details.status;
    this.body = details.body;
    this.rule = details.rule;
  }
}

export const isCaptchaError = (value: unknown): value is CaptchaError => value instanceof CaptchaError;

/** No answer came (the network failed) or the server failed on its side: the same call may work again. */
export const isOutage = (value: unknown): value is CaptchaError =>
  isCaptchaError(value) &&
  (value.status === undefined
    ? value.code === CoreCode.CAPTCHA_ERROR && value.body === undefined
    : value.status >= 500);

/** The widget or its check said no. */
export const rejected = (message: string = CAPTCHA_MESSAGES.rejected, details?: CaptchaErrorDetails) =>
  new CaptchaError(CoreCode.CAPTCHA_REJECTED, message, details);

/** Something broke while the widget ran ('some error occurred'). */
export const widgetError = (message: string = CAPTCHA_MESSAGES.error, details?: CaptchaErrorDetails) =>
  new CaptchaError(CoreCode.CAPTCHA_ERROR, message, details);

/** The widget could not start at all ('fatal error occurred'). */
export const fatal = (details?: CaptchaErrorDetails) =>
  new CaptchaError(CoreCode.CAPTCHA_ERROR, CAPTCHA_MESSAGES.fatal, details);

export const closedError = (rule?: string) =>
  new CaptchaError(CoreCode.CAPTCHA_CLOSED, CAPTCHA_MESSAGES.closed, rule === undefined ? {} : { rule });

/** A copy of `error` that names the rule it happened under. */
export const withRule = (error: CaptchaError, rule: string): CaptchaError =>
  error.rule !== undefined
    ? error
    : new CaptchaError(error.code, error.message, {
        serverCode: error.serverCode,
        status: error.status,
        body: error.body,
        rule,
        cause: error.cause,
      });

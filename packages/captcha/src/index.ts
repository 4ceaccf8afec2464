export { type CaptchaApi, createApi } from './api.ts';
export {
  type Captcha,
  type CaptchaCallbacks,
  type CaptchaOptions,
  type CaptchaRequest,
  type CaptchaSuccess,
  createCaptcha,
  DEFAULT_SCRIPTS,
} from './captcha.ts';
export { fingerprintDeviceId } from './device-id.ts';
export { CaptchaError, isCaptchaError } from './errors.ts';
export type { Page, Timers } from './globals.ts';
export type { CaptchaLocale } from './locale.ts';
export type { HttpRequest, HttpResponse, Transport } from './transport.ts';

/** What delivery needs from an SMS provider: a code by text message, and by voice call. */
import type { SmsConfig, SmsTemplateParam } from '../delivery-config.ts';
import { DeliveryError } from './delivery-error.ts';

export interface CodeMessage {
  /** Mainland mobile number, 11 digits. */
  phone: string;
  /** The purpose; picks the template when SMS_TEMPLATES names one. */
  scene: string;
  code: string;
  minutes: number;
}

export interface SmsProvider {
  sendSms(message: CodeMessage): Promise<void>;
  sendVoice(message: CodeMessage): Promise<void>;
}

export const templateFor = (config: SmsConfig, scene: string) => config.templates[scene] ?? config.template;

const paramValue = (param: SmsTemplateParam, message: CodeMessage) =>
  param === 'code' ? message.code : String(message.minutes);

/** Template variables by name (Aliyun's `{"code":"123456"}`). */
export const namedParams = (config: SmsConfig, message: CodeMessage) =>
  JSON.stringify(Object.fromEntries(config.templateParams.map((p) => [p, paramValue(p, message)])));

/** Template variables in order (Tencent's `["123456","5"]`). */
export const orderedParams = (config: SmsConfig, message: CodeMessage) =>
  config.templateParams.map((p) => paramValue(p, message));

export const voiceNotSetUp = (what: string) =>
  new DeliveryError(
    'Voice codes are not available on this server. Ask for the code by SMS.',
    `voice codes need ${what} (see docs/operators.md)`,
  );

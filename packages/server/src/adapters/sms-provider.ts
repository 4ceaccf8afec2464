/**
 * What delivery needs from an SMS provider: a code by text message, and by voice call; and what
 * `doctor` asks of it: whether the keys, the signature and the templates are good, by read-only calls.
 */
import type { SmsConfig, SmsTemplateParam } from '../config/delivery-config.ts';
import { DeliveryError } from './delivery-error.ts';
import type { ProviderUnreachableError } from './provider-http.ts';
import type { SettingsCheck } from './settings-check.ts';

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
  /** Asks the provider, read-only, whether the keys work and the signature and templates are approved. */
  check(): Promise<SettingsCheck>;
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

/** Each distinct template the settings name, with the variables that name it. */
export const configuredTemplates = (config: SmsConfig): { template: string; variables: string }[] => {
  const names = new Map<string, string[]>([[config.template, ['SMS_TEMPLATE']]]);
  for (const [scene, template] of Object.entries(config.templates)) {
    names.set(template, [...(names.get(template) ?? []), `SMS_TEMPLATES for ${scene}`]);
  }
  return [...names].map(([template, variables]) => ({ template, variables: variables.join(' and ') }));
};

/** A signature or template as the provider's review left it. */
export interface Reviewed {
  kind: 'signature' | 'template';
  name: string;
  /** The variables that name it, e.g. `SMS_TEMPLATE and SMS_TEMPLATES for login`. */
  variables: string;
  status: 'approved' | 'reviewing' | 'rejected' | 'unknown';
  /** The reviewer's words, for a rejection. */
  reason?: string | undefined;
}

const reviewProblem = (provider: string, r: Reviewed): string | undefined => {
  const what = `${r.kind} ${r.name} (${r.variables})`;
  const variable = r.variables.split(' and ')[0];
  const other = `or set ${variable} to an approved ${r.kind}`;
  switch (r.status) {
    case 'approved':
      return undefined;
    case 'reviewing':
      return `${provider} is still reviewing ${what}: nothing can be sent with it yet. Fix: wait for the approval, ${other}.`;
    case 'rejected':
      return `${provider} did not approve ${what}${r.reason ? `: ${r.reason}` : ''}. Fix: change it in ${provider}'s SMS console and submit it again, ${other}.`;
    case 'unknown':
      return `${provider} has no ${what} in the account of SMS_ACCESS_KEY_ID. Fix: set ${variable} to a ${r.kind} shown in ${provider}'s SMS console, or use the key of the account that has it.`;
  }
};

/** One report of what the provider said: ok when everything is approved and nothing else went wrong. */
export const reviewReport = (
  provider: string,
  reviewed: Reviewed[],
  problems: string[],
  notes: string[] = [],
): SettingsCheck => {
  const all = [...problems, ...reviewed.map((r) => reviewProblem(provider, r)).filter((p) => p !== undefined)];
  if (all.length > 0) return { ok: false, detail: all.join(' ') };
  const approved = reviewed.map((r) => `${r.kind} ${r.name} (${r.variables})`).join(', ');
  return {
    ok: true,
    detail: [`${provider} accepts the keys`, ...(approved ? [`approved: ${approved}`] : []), ...notes].join('; '),
  };
};

/** Why the provider refused the request itself, rather than answering about the settings. */
export type KeyFault = 'id' | 'secret' | 'clock' | 'permission';

export const keyProblem = (provider: string, code: string, fault: KeyFault, permission: string): string => {
  const words: Record<KeyFault, string> = {
    id: `SMS_ACCESS_KEY_ID is not a key ${provider} knows. Fix: set SMS_ACCESS_KEY_ID and SMS_ACCESS_KEY_SECRET to an enabled key of the account that owns the signature and templates.`,
    secret: `SMS_ACCESS_KEY_SECRET does not belong to SMS_ACCESS_KEY_ID (the request's signature was refused). Fix: set SMS_ACCESS_KEY_SECRET to the secret issued with that key.`,
    clock: `the request's time was refused: this server's clock is off. Fix: synchronise the clock (NTP).`,
    permission: `the key may not read the SMS settings. Fix: ${permission}.`,
  };
  return `${provider} ${code}: ${words[fault]}`;
};

export const unreachableProblem = (provider: string, endpoint: string, error: ProviderUnreachableError): string =>
  `${provider} could not be asked: ${error.message} (SMS_ENDPOINT=${endpoint}). Fix: check SMS_ENDPOINT${
    error.timedOut ? ' and SMS_TIMEOUT_MS' : ''
  }, and that this server may connect out to it over https.`;

/** An answer that is not the provider's API at all (a proxy's or another server's page). */
export const notTheApiProblem = (provider: string, endpoint: string, status: number): string =>
  `SMS_ENDPOINT=${endpoint} answered HTTP ${status} without ${provider}'s JSON. Fix: set SMS_ENDPOINT to ${provider}'s SMS API, or unset it for the default.`;

/** Any other refusal: the provider's own code and words, which its documentation explains. */
export const refusalProblem = (provider: string, action: string, code: string, message: string): string =>
  `${provider} refused ${action}: ${code} ${message.slice(0, 200)}. Fix: look the code up in ${provider}'s SMS documentation; check SMS_ACCESS_KEY_ID, SMS_REGION and SMS_ENDPOINT.`;

/**
 * The outgoing e-mail and SMS part of the configuration, read by `loadConfig` (config.ts) with the
 * same rules. Without them, codes land in the dev outbox.
 *
 * SMTP_HOST       the mail server; setting it turns SMTP on.
 * SMTP_PORT       465 with SMTP_SECURE, else 587.
 * SMTP_SECURE     TLS from the first byte (true for port 465); otherwise STARTTLS when offered.
 * SMTP_USER, SMTP_PASSWORD  login, when the server wants one.
 * SMTP_FROM       sender, e.g. `EduPass <no-reply@example.com>` (required with SMTP_HOST).
 *
 * SMS_PROVIDER    aliyun, tencent or outbox (default).
 * SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET  Aliyun AccessKey / Tencent SecretId and SecretKey.
 * SMS_SIGN_NAME   the approved signature (签名).
 * SMS_TEMPLATE    the approved template (Aliyun template code, Tencent template id) for codes.
 * SMS_TEMPLATES   per-purpose templates, `scene:template` entries (scenes: register, login, silence,
 *                 bind, change, password_update, reset, common, oauth, step_up; and the notices,
 *                 which go by SMS only with a template of their own: phone_changed, phone_bound,
 *                 password_changed, password_reset, oauth_bound, oauth_unbound, email_bound, email_changed,
 *                 guardian_requested, guardian_added).
 * SMS_TEMPLATE_PARAMS  the template's variables, from `code` and `minutes` (default `code`): Aliyun
 *                 gets them by name (`{"code":"123456"}`), Tencent in this order.
 * SMS_APP_ID      Tencent SmsSdkAppId (required for tencent).
 * SMS_ENDPOINT    https://dysmsapi.aliyuncs.com or https://sms.tencentcloudapi.com.
 * SMS_REGION      cn-hangzhou (Aliyun) or ap-guangzhou (Tencent).
 * SMS_VOICE_TEMPLATE  Aliyun TtsCode (voice codes need it) / Tencent voice template id (without it,
 *                 Tencent sends SendCodeVoice, which needs no template).
 * SMS_VOICE_APP_ID  Tencent VoiceSdkAppid (Tencent voice codes need it).
 * SMS_VOICE_ENDPOINT  https://dyvmsapi.aliyuncs.com or https://vms.tencentcloudapi.com.
 * SMS_VOICE_SHOW_NUMBER  Aliyun CalledShowNumber, for dedicated numbers only.
 * SMS_TIMEOUT_MS  time allowed for each provider call (5000).
 */
import type { Readers } from './readers.ts';

export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export type SmsTemplateParam = 'code' | 'minutes';

export interface SmsConfig {
  provider: 'aliyun' | 'tencent';
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Template for every purpose, unless `templates` names one for the purpose (scene). */
  template: string;
  templates: Record<string, string>;
  /** What the template's variables hold, in order (Tencent) or by name (Aliyun). */
  templateParams: SmsTemplateParam[];
  endpoint: string;
  region: string;
  /** Tencent SmsSdkAppId. */
  appId: string | undefined;
  /** Aliyun TtsCode / Tencent voice template; Tencent without one sends SendCodeVoice. */
  voiceTemplate: string | undefined;
  /** Tencent VoiceSdkAppid. */
  voiceAppId: string | undefined;
  voiceEndpoint: string;
  /** Aliyun CalledShowNumber (dedicated numbers only). */
  voiceShowNumber: string | undefined;
  timeoutMs: number;
}

const ADDRESS = /^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/;

export const readSmtpConfig = ({ int, bool, str }: Readers, problems: string[]): SmtpConfig | undefined => {
  const host = str('SMTP_HOST');
  if (host === undefined) return undefined;
  const secure = bool('SMTP_SECURE', str('SMTP_PORT') === '465');
  const from = str('SMTP_FROM');
  if (from === undefined || !ADDRESS.test(from)) {
    problems.push('SMTP_FROM must be the sender address. Fix: e.g. SMTP_FROM="EduPass <no-reply@example.com>"');
  }
  const user = str('SMTP_USER');
  const password = str('SMTP_PASSWORD');
  if ((user === undefined) !== (password === undefined)) {
    problems.push('SMTP_USER and SMTP_PASSWORD go together. Fix: set both, or neither for a server without login.');
  }
  return { host, port: int('SMTP_PORT', secure ? 465 : 587, 1, 65_535), secure, user, password, from: from ?? '' };
};

const SMS_DEFAULTS = {
  aliyun: { endpoint: 'https://dysmsapi.aliyuncs.com', voice: 'https://dyvmsapi.aliyuncs.com', region: 'cn-hangzhou' },
  tencent: {
    endpoint: 'https://sms.tencentcloudapi.com',
    voice: 'https://vms.tencentcloudapi.com',
    region: 'ap-guangzhou',
  },
} as const;

const isTemplateParam = (p: string): p is SmsTemplateParam => p === 'code' || p === 'minutes';

export const readSmsConfig = ({ int, str, url }: Readers, problems: string[]): SmsConfig | undefined => {
  const provider = str('SMS_PROVIDER');
  if (provider === undefined || provider === 'outbox') return undefined;
  if (provider !== 'aliyun' && provider !== 'tencent') {
    problems.push(`SMS_PROVIDER="${provider}" must be aliyun, tencent or outbox. Fix: e.g. SMS_PROVIDER=aliyun`);
    return undefined;
  }
  const aliyun = provider === 'aliyun';
  const required = (name: string, hint: string) => {
    const value = str(name);
    if (value === undefined) problems.push(`${name} is needed with SMS_PROVIDER=${provider}. Fix: ${hint}`);
    return value ?? '';
  };
  const templates: Record<string, string> = {};
  for (const entry of (str('SMS_TEMPLATES') ?? '').split(',').filter((e) => e.trim() !== '')) {
    const [scene, id, ...rest] = entry.trim().split(':');
    if (!scene || !id || rest.length > 0) {
      problems.push(`SMS_TEMPLATES entry "${entry}" must be scene:template. Fix: e.g. SMS_TEMPLATES=login:SMS_1`);
    } else templates[scene] = id;
  }
  const templateParams = (str('SMS_TEMPLATE_PARAMS') ?? 'code').split(',').map((p) => p.trim());
  if (!templateParams.every(isTemplateParam)) {
    problems.push('SMS_TEMPLATE_PARAMS lists the template variables from code and minutes. Fix: e.g. code,minutes');
  }
  const defaults = SMS_DEFAULTS[provider];
  const endpoint = (name: string, fallback: string) => url(name, fallback, ['http:', 'https:']).replace(/\/+$/, '');
  return {
    provider,
    accessKeyId: required(
      'SMS_ACCESS_KEY_ID',
      aliyun ? 'the AccessKey ID of a RAM user' : 'the SecretId of an API key',
    ),
    accessKeySecret: required('SMS_ACCESS_KEY_SECRET', aliyun ? 'the AccessKey secret' : 'the SecretKey'),
    signName: required('SMS_SIGN_NAME', 'the approved signature, e.g. SMS_SIGN_NAME=EduPass'),
    template: required('SMS_TEMPLATE', aliyun ? 'the template code, e.g. SMS_123456789' : 'the template id, e.g. 1110'),
    templates,
    templateParams: templateParams.filter(isTemplateParam),
    endpoint: endpoint('SMS_ENDPOINT', defaults.endpoint),
    region: str('SMS_REGION') ?? defaults.region,
    appId: aliyun ? undefined : required('SMS_APP_ID', 'the SmsSdkAppId from the SMS console, e.g. 1400006666'),
    voiceTemplate: str('SMS_VOICE_TEMPLATE'),
    voiceAppId: str('SMS_VOICE_APP_ID'),
    voiceEndpoint: endpoint('SMS_VOICE_ENDPOINT', defaults.voice),
    voiceShowNumber: str('SMS_VOICE_SHOW_NUMBER'),
    timeoutMs: int('SMS_TIMEOUT_MS', 5000, 100, 60_000),
  };
};

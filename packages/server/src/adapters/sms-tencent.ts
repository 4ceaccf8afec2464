/**
 * Tencent Cloud SMS (`SendSms`, 2021-01-11) and voice messages (VMS `SendTtsVoice` with a voice
 * template, else `SendCodeVoice`, 2020-09-02), JSON POSTs signed with TC3-HMAC-SHA256. Refusals come
 * as `Response.Error {Code, Message}` (the request) or a SendStatusSet entry whose Code is not "Ok"
 * (the number). The settings check reads the templates' review with `DescribeSmsTemplateList`.
 */
import type { SmsConfig } from '../config/delivery-config.ts';
import { fetchText, isRecord, jsonObject, ProviderUnreachableError, stringField } from './provider-http.ts';
import { providerRefusal, providerUnreachable } from './sms-errors.ts';
import {
  type CodeMessage,
  configuredTemplates,
  type KeyFault,
  keyProblem,
  notTheApiProblem,
  orderedParams,
  type Reviewed,
  refusalProblem,
  reviewReport,
  type SmsProvider,
  templateFor,
  unreachableProblem,
  voiceNotSetUp,
} from './sms-provider.ts';
import { tc3Headers } from './tencent-signature.ts';

const object = (value: unknown): Record<string, unknown> | undefined => (isRecord(value) ? value : undefined);

interface ApiCall {
  what: 'SMS' | 'voice call';
  endpoint: string;
  service: 'sms' | 'vms';
  version: string;
  action: string;
  body: Record<string, unknown>;
}

interface ApiAnswer {
  status: number;
  text: string;
  /** The `Response` object, when the body has one. */
  response: Record<string, unknown> | undefined;
  /** `Response.Error`, when Tencent refused the request. */
  error: { code: string; message: string } | undefined;
}

/** One signed call; throws ProviderUnreachableError when Tencent does not answer. */
const post = async (config: SmsConfig, call: Omit<ApiCall, 'what'>): Promise<ApiAnswer> => {
  const payload = JSON.stringify(call.body);
  const timestamp = Math.floor(Date.now() / 1000);
  const url = `${call.endpoint}/`;
  const answer = await fetchText(
    url,
    {
      method: 'POST',
      headers: tc3Headers({
        secretId: config.accessKeyId,
        secretKey: config.accessKeySecret,
        service: call.service,
        url,
        action: call.action,
        version: call.version,
        region: config.region,
        payload,
        timestamp,
      }),
      body: payload,
    },
    config.timeoutMs,
  );
  const response = object(jsonObject(answer.text)?.Response);
  const error = object(response?.Error);
  return {
    ...answer,
    response,
    error: error && {
      code: stringField(error, 'Code') ?? 'Error',
      message: stringField(error, 'Message') ?? '',
    },
  };
};

/** The `Response` object of a successful call; a DeliveryError for any refusal. */
const callApi = async (config: SmsConfig, call: ApiCall): Promise<Record<string, unknown>> => {
  let answer: ApiAnswer;
  try {
    answer = await post(config, call);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      throw providerUnreachable(call.what, 'Tencent', `Tencent ${call.action}: ${error.message}`, error);
    }
    throw error;
  }
  if (!answer.response) {
    throw providerRefusal(call.what, 'Tencent', `HTTP ${answer.status}`, answer.text.slice(0, 200));
  }
  if (answer.error) throw providerRefusal(call.what, 'Tencent', answer.error.code, answer.error.message);
  return answer.response;
};

const KEY_FAULTS: [RegExp, KeyFault][] = [
  [/^AuthFailure\.(SecretIdNotFound|InvalidSecretId)/, 'id'],
  [/^AuthFailure\.(SignatureFailure|InvalidAuthorization)/, 'secret'],
  [/^AuthFailure\.SignatureExpire/, 'clock'],
  [/^(AuthFailure|UnauthorizedOperation)/, 'permission'],
];

/** DescribeTemplateStatusSet's StatusCode. */
const REVIEW: Record<string, Reviewed['status']> = { '0': 'approved', '1': 'reviewing', '-1': 'rejected' };

type Template = Omit<Reviewed, 'status' | 'reason'>;

/** The review of some templates by id; a string when Tencent refused the request itself. */
const describeTemplates = async (config: SmsConfig, templates: Template[]): Promise<Reviewed[] | string> => {
  const action = 'DescribeSmsTemplateList';
  const answer = await post(config, {
    endpoint: config.endpoint,
    service: 'sms',
    version: '2021-01-11',
    action,
    body: { TemplateIdSet: templates.map((t) => Number(t.name)), International: 0 },
  });
  if (!answer.response) return notTheApiProblem('Tencent', config.endpoint, answer.status);
  if (answer.error) {
    const { code, message } = answer.error;
    // Tencent names no template when it cannot find one: ask for each alone to learn which.
    if (code === 'FailedOperation.MissingTemplateList') {
      if (templates.length === 1) return templates.map((t) => ({ ...t, status: 'unknown' }));
      const each = await Promise.all(templates.map((t) => describeTemplates(config, [t])));
      return each.find((r) => typeof r === 'string') ?? each.flatMap((r) => (typeof r === 'string' ? [] : r));
    }
    // Past authentication, but Tencent shows templates to enterprise-verified accounts only.
    if (code === 'FailedOperation.NotEnterpriseCertification') return [];
    const fault = KEY_FAULTS.find(([pattern]) => pattern.test(code))?.[1];
    return fault
      ? keyProblem('Tencent', code, fault, 'allow the CAM user sms:DescribeSmsTemplateList (QcloudSMSReadOnlyAccess)')
      : refusalProblem('Tencent', action, code, message);
  }
  const statuses = Array.isArray(answer.response.DescribeTemplateStatusSet)
    ? answer.response.DescribeTemplateStatusSet.map(object).filter((s) => s !== undefined)
    : [];
  return templates.map((t) => {
    const status = statuses.find((s) => stringField(s, 'TemplateId') === t.name);
    if (!status) return { ...t, status: 'unknown' };
    return {
      ...t,
      status: REVIEW[stringField(status, 'StatusCode') ?? ''] ?? 'rejected',
      reason: stringField(status, 'ReviewReply'),
    };
  });
};

const check = async (config: SmsConfig) => {
  const problems: string[] = [];
  const templates: Template[] = [];
  for (const { template, variables } of configuredTemplates(config)) {
    if (/^[1-9]\d{0,15}$/.test(template)) templates.push({ kind: 'template', name: template, variables });
    else {
      problems.push(
        `${template} (${variables}) is not a Tencent template id. Fix: use the template's id (a number such as 1110) from Tencent's SMS console.`,
      );
    }
  }
  // Tencent finds signatures by id (DescribeSmsSignList); EduPass sends the name, so it cannot be looked up.
  const notes = [
    'SMS_SIGN_NAME is not checked (Tencent looks signatures up by id, not by name), nor SMS_APP_ID: the first code sent tries both',
  ];
  if (templates.length === 0) return reviewReport('Tencent', [], problems, notes);
  try {
    const reviewed = await describeTemplates(config, templates);
    if (typeof reviewed === 'string') return reviewReport('Tencent', [], [reviewed]);
    if (reviewed.length === 0) {
      notes.unshift(
        'templates are not checked: Tencent answers template queries for enterprise-verified accounts only',
      );
    }
    return reviewReport('Tencent', reviewed, problems, notes);
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    return reviewReport('Tencent', [], [unreachableProblem('Tencent', config.endpoint, error)]);
  }
};

const e164 = (phone: string) => `+86${phone}`;

export const tencentSms = (config: SmsConfig): SmsProvider => ({
  async sendSms(message: CodeMessage) {
    const response = await callApi(config, {
      what: 'SMS',
      endpoint: config.endpoint,
      service: 'sms',
      version: '2021-01-11',
      action: 'SendSms',
      body: {
        PhoneNumberSet: [e164(message.phone)],
        SmsSdkAppId: config.appId,
        SignName: config.signName,
        TemplateId: templateFor(config, message.scene),
        TemplateParamSet: orderedParams(config, message),
      },
    });
    const statuses = Array.isArray(response.SendStatusSet) ? response.SendStatusSet.map(object) : [];
    const status = statuses[0];
    const code = status ? stringField(status, 'Code') : undefined;
    if (code !== 'Ok') {
      throw providerRefusal('SMS', 'Tencent', code ?? 'NoSendStatus', (status && stringField(status, 'Message')) ?? '');
    }
  },
  async sendVoice(message: CodeMessage) {
    if (!config.voiceAppId) throw voiceNotSetUp('SMS_VOICE_APP_ID (the VoiceSdkAppid of the voice message console)');
    const common = { CalledNumber: e164(message.phone), VoiceSdkAppid: config.voiceAppId, PlayTimes: 2 };
    const response = await callApi(config, {
      what: 'voice call',
      endpoint: config.voiceEndpoint,
      service: 'vms',
      version: '2020-09-02',
      ...(config.voiceTemplate
        ? {
            action: 'SendTtsVoice',
            body: { ...common, TemplateId: config.voiceTemplate, TemplateParamSet: orderedParams(config, message) },
          }
        : { action: 'SendCodeVoice', body: { ...common, CodeMessage: message.code } }),
    });
    if (!object(response.SendStatus)) throw providerRefusal('voice call', 'Tencent', 'NoSendStatus', '');
  },
  check: () => check(config),
});

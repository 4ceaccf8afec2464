/**
 * Tencent Cloud SMS (`SendSms`, 2021-01-11) and voice messages (VMS `SendTtsVoice` with a voice
 * template, else `SendCodeVoice`, 2020-09-02), JSON POSTs signed with TC3-HMAC-SHA256. Refusals come
 * as `Response.Error {Code, Message}` (the request) or a SendStatusSet entry whose Code is not "Ok"
 * (the number).
 */
import type { SmsConfig } from '../delivery-config.ts';
import { fetchText, jsonObject, ProviderUnreachableError, stringField } from './provider-http.ts';
import { providerRefusal, providerUnreachable } from './sms-errors.ts';
import { type CodeMessage, orderedParams, type SmsProvider, templateFor, voiceNotSetUp } from './sms-provider.ts';
import { CONTENT_TYPE, tc3Authorization } from './tencent-signature.ts';

const object = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

interface ApiCall {
  what: 'SMS' | 'voice call';
  endpoint: string;
  service: 'sms' | 'vms';
  version: string;
  action: string;
  body: Record<string, unknown>;
}

/** The `Response` object of a successful call; a DeliveryError for any refusal. */
const callApi = async (config: SmsConfig, call: ApiCall): Promise<Record<string, unknown>> => {
  const payload = JSON.stringify(call.body);
  const timestamp = Math.floor(Date.now() / 1000);
  const authorization = tc3Authorization({
    secretId: config.accessKeyId,
    secretKey: config.accessKeySecret,
    service: call.service,
    host: new URL(call.endpoint).host,
    action: call.action,
    payload,
    timestamp,
  });
  let answer: Awaited<ReturnType<typeof fetchText>>;
  try {
    answer = await fetchText(
      `${call.endpoint}/`,
      {
        method: 'POST',
        headers: {
          authorization,
          'content-type': CONTENT_TYPE,
          'x-tc-action': call.action,
          'x-tc-timestamp': String(timestamp),
          'x-tc-version': call.version,
          'x-tc-region': config.region,
        },
        body: payload,
      },
      config.timeoutMs,
    );
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      throw providerUnreachable(call.what, 'Tencent', `Tencent ${call.action}: ${error.message}`, error);
    }
    throw error;
  }
  const response = object(jsonObject(answer.text)?.Response);
  if (!response) throw providerRefusal(call.what, 'Tencent', `HTTP ${answer.status}`, answer.text.slice(0, 200));
  const error = object(response.Error);
  if (error) {
    throw providerRefusal(
      call.what,
      'Tencent',
      stringField(error, 'Code') ?? 'Error',
      stringField(error, 'Message') ?? '',
    );
  }
  return response;
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
});

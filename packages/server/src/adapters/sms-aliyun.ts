/**
 * Aliyun SMS (dysmsapi `SendSms`, 2017-05-25) and voice (dyvmsapi `SingleCallByTts`, 2017-05-25),
 * RPC-signed form POSTs. Success is `{"Code":"OK",…}`; refusals carry another Code, with HTTP 200
 * (isv.*) or 4xx (SignatureDoesNotMatch, InvalidAccessKeyId.NotFound, …).
 */
import type { SmsConfig } from '../delivery-config.ts';
import { signedRpcBody } from './aliyun-signature.ts';
import { fetchText, jsonObject, ProviderUnreachableError, stringField } from './provider-http.ts';
import { providerRefusal, providerUnreachable } from './sms-errors.ts';
import { type CodeMessage, namedParams, type SmsProvider, templateFor, voiceNotSetUp } from './sms-provider.ts';

const VERSION = '2017-05-25';

const rpc = async (
  config: SmsConfig,
  what: 'SMS' | 'voice call',
  endpoint: string,
  action: string,
  params: Record<string, string>,
) => {
  const body = signedRpcBody({
    action,
    version: VERSION,
    regionId: config.region,
    accessKeyId: config.accessKeyId,
    accessKeySecret: config.accessKeySecret,
    params,
  });
  let answer: Awaited<ReturnType<typeof fetchText>>;
  try {
    answer = await fetchText(
      `${endpoint}/`,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
      config.timeoutMs,
    );
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      throw providerUnreachable(what, 'Aliyun', `Aliyun ${action}: ${error.message}`, error);
    }
    throw error;
  }
  const result = jsonObject(answer.text);
  const code = result ? stringField(result, 'Code') : undefined;
  if (answer.status === 200 && code === 'OK') return;
  throw providerRefusal(
    what,
    'Aliyun',
    code ?? `HTTP ${answer.status}`,
    (result && stringField(result, 'Message')) ?? answer.text.slice(0, 200),
  );
};

export const aliyunSms = (config: SmsConfig): SmsProvider => ({
  sendSms: (message: CodeMessage) =>
    rpc(config, 'SMS', config.endpoint, 'SendSms', {
      PhoneNumbers: message.phone,
      SignName: config.signName,
      TemplateCode: templateFor(config, message.scene),
      TemplateParam: namedParams(config, message),
    }),
  async sendVoice(message: CodeMessage) {
    if (!config.voiceTemplate) throw voiceNotSetUp('SMS_VOICE_TEMPLATE (an approved TTS template code)');
    await rpc(config, 'voice call', config.voiceEndpoint, 'SingleCallByTts', {
      CalledNumber: message.phone,
      TtsCode: config.voiceTemplate,
      TtsParam: namedParams(config, message),
      PlayTimes: '2',
      ...(config.voiceShowNumber ? { CalledShowNumber: config.voiceShowNumber } : {}),
    });
  },
});

/**
 * Aliyun SMS (dysmsapi `SendSms`, 2017-05-25) and voice (dyvmsapi `SingleCallByTts`, 2017-05-25),
 * RPC-signed form POSTs. Success is `{"Code":"OK",…}`; refusals carry another Code, with HTTP 200
 * (isv.*) or 4xx (SignatureDoesNotMatch, InvalidAccessKeyId.NotFound, …). The settings check reads
 * the signature's and templates' review with `GetSmsSign` and `GetSmsTemplate` (API 2017-05-25; they
 * replace QuerySmsSign / QuerySmsTemplate, which Aliyun has taken or is taking offline).
 */
import type { SmsConfig } from '../config/delivery-config.ts';
import { signedRpcBody } from './aliyun-signature.ts';
import { fetchText, isRecord, jsonObject, ProviderUnreachableError, stringField } from './provider-http.ts';
import { providerRefusal, providerUnreachable } from './sms-errors.ts';
import {
  type CodeMessage,
  configuredTemplates,
  type KeyFault,
  keyProblem,
  namedParams,
  notTheApiProblem,
  type Reviewed,
  refusalProblem,
  reviewReport,
  type SmsProvider,
  templateFor,
  unreachableProblem,
  voiceNotSetUp,
} from './sms-provider.ts';

const VERSION = '2017-05-25';

interface RpcAnswer {
  status: number;
  code: string | undefined;
  message: string;
  result: Record<string, unknown> | undefined;
}

/** One signed call; throws ProviderUnreachableError when Aliyun does not answer. */
const call = async (
  config: SmsConfig,
  endpoint: string,
  action: string,
  params: Record<string, string>,
): Promise<RpcAnswer> => {
  const body = signedRpcBody({
    action,
    version: VERSION,
    regionId: config.region,
    accessKeyId: config.accessKeyId,
    accessKeySecret: config.accessKeySecret,
    params,
  });
  const answer = await fetchText(
    `${endpoint}/`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    config.timeoutMs,
  );
  const result = jsonObject(answer.text);
  return {
    status: answer.status,
    code: result ? stringField(result, 'Code') : undefined,
    message: (result && stringField(result, 'Message')) ?? answer.text.slice(0, 200),
    result,
  };
};

const rpc = async (
  config: SmsConfig,
  what: 'SMS' | 'voice call',
  endpoint: string,
  action: string,
  params: Record<string, string>,
) => {
  let answer: RpcAnswer;
  try {
    answer = await call(config, endpoint, action, params);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      throw providerUnreachable(what, 'Aliyun', `Aliyun ${action}: ${error.message}`, error);
    }
    throw error;
  }
  if (answer.status === 200 && answer.code === 'OK') return;
  throw providerRefusal(what, 'Aliyun', answer.code ?? `HTTP ${answer.status}`, answer.message);
};

const KEY_FAULTS: [RegExp, KeyFault][] = [
  [/^InvalidAccessKeyId/, 'id'],
  [/^(SignatureDoesNotMatch|IncompleteSignature)$/, 'secret'],
  [/^(InvalidTimeStamp|SignatureNonceUsed)/, 'clock'],
  [/RAM_PERMISSION|^Forbidden|NoPermission/, 'permission'],
];

/** Review states of GetSmsSign's SignStatus (a number) and GetSmsTemplate's TemplateStatus (a string). */
const REVIEW: Record<string, Reviewed['status']> = { '0': 'reviewing', '1': 'approved', '2': 'rejected' };

/** Error codes that mean the account has no such signature / template. */
const UNKNOWN = {
  signature: /^isv\.SMS_(SIGNATURE|SIGN)_(ILLEGAL|NOT_EXIST)/,
  template: /^isv\.SMS_TEMPLATE_(ILLEGAL|NOT_EXIST)/,
} as const;

/** Why a review was rejected: `AuditInfo.RejectInfo`. */
const rejectInfo = (result: Record<string, unknown>) => {
  const audit = result.AuditInfo;
  return isRecord(audit) ? stringField(audit, 'RejectInfo') : undefined;
};

/**
 * One signature's or template's review; a string when Aliyun refused the request itself (keys,
 * permissions), which ends the check.
 */
const review = async (config: SmsConfig, item: Omit<Reviewed, 'status' | 'reason'>): Promise<Reviewed | string> => {
  const signature = item.kind === 'signature';
  const action = signature ? 'GetSmsSign' : 'GetSmsTemplate';
  const answer = await call(
    config,
    config.endpoint,
    action,
    signature ? { SignName: item.name } : { TemplateCode: item.name },
  );
  if (!answer.result) return notTheApiProblem('Aliyun', config.endpoint, answer.status);
  const code = answer.code ?? `HTTP ${answer.status}`;
  if (answer.status === 200 && code === 'OK') {
    const status = stringField(answer.result, signature ? 'SignStatus' : 'TemplateStatus') ?? '';
    // 10 is a review the owner cancelled: as good as rejected for sending.
    const reason = status === '10' ? 'the review was cancelled' : rejectInfo(answer.result);
    return { ...item, status: REVIEW[status] ?? 'rejected', reason };
  }
  if (UNKNOWN[item.kind].test(code)) return { ...item, status: 'unknown' };
  const fault = KEY_FAULTS.find(([pattern]) => pattern.test(code))?.[1];
  return fault
    ? keyProblem('Aliyun', code, fault, 'grant the RAM user AliyunDysmsFullAccess (or AliyunDysmsReadOnlyAccess)')
    : refusalProblem('Aliyun', action, code, answer.message);
};

const check = async (config: SmsConfig) => {
  const items: Omit<Reviewed, 'status' | 'reason'>[] = [
    { kind: 'signature', name: config.signName, variables: 'SMS_SIGN_NAME' },
    ...configuredTemplates(config).map(({ template, variables }) => ({
      kind: 'template' as const,
      name: template,
      variables,
    })),
  ];
  const reviewed: Reviewed[] = [];
  try {
    for (const item of items) {
      const answer = await review(config, item);
      if (typeof answer === 'string') return reviewReport('Aliyun', [], [answer]);
      reviewed.push(answer);
    }
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    return reviewReport('Aliyun', [], [unreachableProblem('Aliyun', config.endpoint, error)]);
  }
  return reviewReport('Aliyun', reviewed, []);
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
  check: () => check(config),
});

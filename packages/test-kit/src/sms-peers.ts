/**
 * Local stand-ins for Aliyun's and Tencent Cloud's SMS/voice APIs. Each checks the request signature
 * the way the provider documents it (written here independently of the adapters' signing code) and
 * answers with the provider's own success and error bodies. A phone number picks the outcome:
 * ending 0001 a refused number, 0002 a sending limit, 0003 one transient error then success, 0004 no
 * answer at all. The read-only review actions (Aliyun GetSmsSign / GetSmsTemplate, Tencent
 * DescribeSmsTemplateList) find every signature and template approved unless `reviews` says otherwise.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aliyunRpcRefusal, tencentTc3Refusal } from './vendor-signatures.ts';

export interface PeerRequest {
  action: string;
  params: Record<string, unknown>;
}

/** A signature or template that is not (yet) approved; any name not in `reviews` is approved. */
export type PeerReview = 'reviewing' | 'rejected' | 'unknown';

export interface SmsPeer {
  url: string;
  requests: PeerRequest[];
  /** Signature names and template codes / ids → their review. */
  reviews: Map<string, PeerReview>;
  close(): Promise<void>;
}

export const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });

export const json = (response: ServerResponse, status: number, body: object) =>
  response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(body));

const listen = async (
  handle: (request: IncomingMessage, body: string, response: ServerResponse) => void,
  requests: PeerRequest[],
  reviews: Map<string, PeerReview>,
): Promise<SmsPeer> => {
  const server = createServer((request, response) => {
    readBody(request).then((body) => {
      if (/0004(&|")/.test(body)) return; // a phone ending 0004: never answers
      handle(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    reviews,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const REJECTION = '文件不能证明信息真实性，请重新上传';

/**
 * Aliyun's answer to GetSmsSign / GetSmsTemplate: SignStatus a number, TemplateStatus a string (0
 * reviewing, 1 approved, 2 rejected with AuditInfo.RejectInfo).
 */
const aliyunReview = (sign: boolean, name: string, review: PeerReview | undefined) => {
  if (review === 'unknown') {
    return sign
      ? { Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '该账号下找不到对应签名' }
      : { Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '该账号下找不到对应模板' };
  }
  const status = review === 'reviewing' ? 0 : review === 'rejected' ? 2 : 1;
  const common = {
    Code: 'OK',
    Message: 'OK',
    CreateDate: '2024-06-03 10:02:34',
    OrderId: '20044156924',
    AuditInfo: review === 'rejected' ? { RejectInfo: REJECTION, AuditDate: '2024-06-03 12:02:34' } : {},
  };
  return sign
    ? { ...common, SignName: name, SignStatus: status }
    : {
        ...common,
        TemplateCode: name,
        TemplateStatus: String(status),
        TemplateName: '验证码',
        TemplateType: '0',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Aliyun writes template variables as ${name}
        TemplateContent: '您的验证码为${code}，${minutes}分钟内有效',
      };
};

/** Aliyun RPC: dysmsapi SendSms, GetSmsSign, GetSmsTemplate and dyvmsapi SingleCallByTts. */
export const aliyunPeer = (accessKeyId: string, secret: string) => {
  const requests: PeerRequest[] = [];
  /** Numbers ending 0003 fail once (a transient error), then succeed: per peer, not per process. */
  const transientOnce = new Set<string>();
  const reviews = new Map<string, PeerReview>();
  return listen(
    (request, body, response) => {
      const params = Object.fromEntries(new URLSearchParams(body));
      const requestId = randomUUID().toUpperCase();
      const refusal = aliyunRpcRefusal(request, params, accessKeyId, secret, requestId, 'dysmsapi.aliyuncs.com');
      if (refusal) return json(response, refusal.status, refusal.body);
      const action = params.Action ?? '';
      requests.push({ action, params });
      if (action === 'GetSmsSign' || action === 'GetSmsTemplate') {
        const sign = action === 'GetSmsSign';
        const name = (sign ? params.SignName : params.TemplateCode) ?? '';
        return json(response, 200, { RequestId: requestId, ...aliyunReview(sign, name, reviews.get(name)) });
      }
      const phone = params.PhoneNumbers ?? params.CalledNumber ?? '';
      if (phone.endsWith('0001')) {
        return json(response, 200, { RequestId: requestId, Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' });
      }
      if (phone.endsWith('0002')) {
        return json(response, 200, {
          RequestId: requestId,
          Code: 'isv.BUSINESS_LIMIT_CONTROL',
          Message: '触发号码天级流控Permits:10',
        });
      }
      if (phone.endsWith('0003') && !transientOnce.has(`aliyun${phone}`)) {
        transientOnce.add(`aliyun${phone}`);
        return json(response, 500, {
          RequestId: requestId,
          Code: 'InternalError',
          Message: 'The request processing has failed due to some unknown error.',
        });
      }
      return action === 'SingleCallByTts'
        ? json(response, 200, { RequestId: requestId, Code: 'OK', Message: 'OK', CallId: `116012354148^${Date.now()}` })
        : json(response, 200, {
            RequestId: requestId,
            Code: 'OK',
            Message: 'OK',
            BizId: `900619746936498440^${Date.now()}`,
          });
    },
    requests,
    reviews,
  );
};

/** Tencent Cloud API 3.0: sms SendSms and DescribeSmsTemplateList, vms SendTtsVoice / SendCodeVoice. */
export const tencentPeer = (secretId: string, secretKey: string) => {
  const requests: PeerRequest[] = [];
  /** Numbers ending 0003 fail once (a transient error), then succeed: per peer, not per process. */
  const transientOnce = new Set<string>();
  const reviews = new Map<string, PeerReview>();
  return listen(
    (request, body, response) => {
      const requestId = randomUUID();
      const fail = (code: string, message: string) =>
        json(response, 200, { Response: { Error: { Code: code, Message: message }, RequestId: requestId } });
      const refusal = tencentTc3Refusal(request, body, secretId, secretKey);
      if (refusal) return fail(refusal.code, refusal.message);
      const action = String(request.headers['x-tc-action'] ?? '');
      const params = JSON.parse(body) as Record<string, unknown>;
      requests.push({ action, params });
      if (action === 'DescribeSmsTemplateList') {
        const ids = params.TemplateIdSet;
        if (!Array.isArray(ids) || !ids.every(Number.isInteger) || ![0, 1].includes(params.International as number)) {
          return fail(
            'InvalidParameter',
            'TemplateIdSet must hold template ids (integers); International must be 0 or 1.',
          );
        }
        if (ids.some((id) => reviews.get(String(id)) === 'unknown')) {
          return fail('FailedOperation.MissingTemplateList', '无法识别模板，请确认是否已有模板通过申请');
        }
        return json(response, 200, {
          Response: {
            DescribeTemplateStatusSet: ids.map((id: number) => {
              const review = reviews.get(String(id));
              return {
                TemplateName: '验证码',
                TemplateId: id,
                International: 0,
                ReviewReply: review === 'rejected' ? REJECTION : '',
                CreateTime: 1617379200,
                StatusCode: review === 'reviewing' ? 1 : review === 'rejected' ? -1 : 0,
              };
            }),
            RequestId: requestId,
          },
        });
      }
      const phone = String(
        (Array.isArray(params.PhoneNumberSet) ? params.PhoneNumberSet[0] : params.CalledNumber) ?? '',
      );
      if (phone.endsWith('0003') && !transientOnce.has(`tencent${phone}`)) {
        transientOnce.add(`tencent${phone}`);
        return fail('InternalError', 'An internal error has occurred. Retry your request.');
      }
      if (action === 'SendSms') {
        const status = (code: string, message: string) =>
          json(response, 200, {
            Response: {
              SendStatusSet: [
                {
                  SerialNo: phone.endsWith('0001') ? '' : '5000:1045710669157053657849499619',
                  PhoneNumber: phone,
                  Fee: 1,
                  SessionContext: '',
                  Code: code,
                  Message: message,
                  IsoCode: 'CN',
                },
              ],
              RequestId: requestId,
            },
          });
        if (phone.endsWith('0001'))
          return status('InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number');
        if (phone.endsWith('0002'))
          return status(
            'LimitExceeded.PhoneNumberDailyLimit',
            'the number of sms messages sent from a single mobile number every day exceeds the upper limit',
          );
        return status('Ok', 'send success');
      }
      if (phone.endsWith('0001'))
        return fail('InvalidParameterValue.CalledNumberVerifyFail', 'called number verify fail');
      return json(response, 200, {
        Response: { SendStatus: { CallId: randomUUID(), SessionContext: '' }, RequestId: requestId },
      });
    },
    requests,
    reviews,
  );
};

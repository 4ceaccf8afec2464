/**
 * Aliyun captcha 2.0 second check: VerifyIntelligentCaptcha (version 2023-03-05), an RPC-style call
 * signed HMAC-SHA1 over the sorted, percent-encoded parameters. Result.VerifyResult true is a pass.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { AliyunConfig } from '../../config/captcha-config.ts';
import { callVendor, isRecord, pass, refuse, type Verdict } from './http.ts';

/** RFC 3986 encoding as Aliyun's RPC signature wants it. */
export const percentEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const canonicalQuery = (params: Record<string, string>) =>
  Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key] ?? '')}`)
    .join('&');

export const rpcSignature = (method: 'GET' | 'POST', params: Record<string, string>, secret: string) =>
  createHmac('sha1', `${secret}&`)
    .update(`${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`)
    .digest('base64');

export const aliyunVerify = async (
  config: AliyunConfig,
  captchaVerifyParam: string,
  timeoutMs: number,
  nowMs: number,
): Promise<Verdict> => {
  const params: Record<string, string> = {
    Action: 'VerifyIntelligentCaptcha',
    Version: '2023-03-05',
    Format: 'JSON',
    AccessKeyId: config.accessKeyId,
    SignatureMethod: 'HMAC-SHA1',
    SignatureVersion: '1.0',
    SignatureNonce: randomUUID(),
    Timestamp: new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    CaptchaVerifyParam: captchaVerifyParam,
    SceneId: config.sceneId,
  };
  params.Signature = rpcSignature('POST', params, config.accessKeySecret);
  const body = Object.entries(params)
    .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`)
    .join('&');
  const answer = await callVendor(
    'Aliyun',
    `${config.endpoint.replace(/\/$/, '')}/`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    timeoutMs,
  );
  if (!isRecord(answer.json)) return refuse(`answered ${answer.status} without JSON`);
  const result = isRecord(answer.json.Result) ? answer.json.Result : undefined;
  return answer.json.Success === true && result?.VerifyResult === true
    ? pass
    : refuse(`${String(answer.json.Code)} ${String(result?.VerifyCode ?? '')}`);
};

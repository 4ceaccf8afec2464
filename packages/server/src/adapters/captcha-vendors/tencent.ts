/**
 * Tencent Cloud Captcha: DescribeCaptchaResult (version 2019-07-22) signed with TC3-HMAC-SHA256.
 * CaptchaCode 1 is a pass; any other code, or an Error, is a refusal.
 */
import { createHash, createHmac } from 'node:crypto';
import type { TencentConfig } from '../../config/captcha-config.ts';
import { callVendor, isRecord, pass, refuse, type Verdict } from './http.ts';

const SERVICE = 'captcha';
const ACTION = 'DescribeCaptchaResult';
const VERSION = '2019-07-22';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();

/** The TC3-HMAC-SHA256 Authorization header for a JSON POST to `/` (exported for the test peer's check). */
export const tc3Authorization = (input: {
  secretId: string;
  secretKey: string;
  host: string;
  action: string;
  payload: string;
  timestamp: number;
  service?: string;
}) => {
  const service = input.service ?? SERVICE;
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`,
    signedHeaders,
    sha256(input.payload),
  ].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
};

export const tencentVerify = async (
  config: TencentConfig,
  result: { ticket: string; randstr: string },
  ip: string,
  timeoutMs: number,
  nowMs: number,
): Promise<Verdict> => {
  const payload = JSON.stringify({
    CaptchaType: 9,
    Ticket: result.ticket,
    UserIp: ip,
    Randstr: result.randstr,
    CaptchaAppId: Number(config.appId),
    AppSecretKey: config.appSecretKey,
  });
  const url = new URL(config.endpoint);
  const timestamp = Math.floor(nowMs / 1000);
  const answer = await callVendor(
    'Tencent',
    url.toString(),
    {
      method: 'POST',
      headers: {
        Authorization: tc3Authorization({ ...config, host: url.host, action: ACTION, payload, timestamp }),
        'Content-Type': CONTENT_TYPE,
        'X-TC-Action': ACTION,
        'X-TC-Timestamp': String(timestamp),
        'X-TC-Version': VERSION,
      },
      body: payload,
    },
    timeoutMs,
  );
  const response = isRecord(answer.json) && isRecord(answer.json.Response) ? answer.json.Response : undefined;
  if (!response) return refuse(`answered ${answer.status} without Response`);
  if (isRecord(response.Error)) return refuse(`error ${String(response.Error.Code)}`);
  return response.CaptchaCode === 1 ? pass : refuse(`CaptchaCode ${String(response.CaptchaCode)}`);
};

/** Tickets the page makes up when TCaptcha.js cannot load (Tencent's disaster recovery). */
export const isTencentFallbackTicket = (ticket: string) => ticket.startsWith('terror_');

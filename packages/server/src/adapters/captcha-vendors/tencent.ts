/**
 * Tencent Cloud Captcha: DescribeCaptchaResult (version 2019-07-22) signed with TC3-HMAC-SHA256.
 * CaptchaCode 1 is a pass; any other code, or an Error, is a refusal.
 */
import type { TencentConfig } from '../../config/captcha-config.ts';
import { tc3Headers } from '../tencent-signature.ts';
import { callVendor, isRecord, pass, refuse, type Verdict } from './http.ts';

const SERVICE = 'captcha';
const ACTION = 'DescribeCaptchaResult';
const VERSION = '2019-07-22';

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
      headers: tc3Headers({
        secretId: config.secretId,
        secretKey: config.secretKey,
        service: SERVICE,
        url: url.toString(),
        action: ACTION,
        version: VERSION,
        payload,
        timestamp,
      }),
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

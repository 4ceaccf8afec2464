/**
 * Aliyun captcha 2.0 second check: VerifyIntelligentCaptcha (version 2023-03-05), an RPC-style call
 * signed HMAC-SHA1 over the sorted, percent-encoded parameters (aliyun-signature.ts).
 * Result.VerifyResult true is a pass.
 */
import type { AliyunConfig } from '../../config/captcha-config.ts';
import { signedRpcBody } from '../aliyun-signature.ts';
import { callVendor, isRecord, pass, refuse, type Verdict } from './http.ts';

export const aliyunVerify = async (
  config: AliyunConfig,
  captchaVerifyParam: string,
  timeoutMs: number,
  nowMs: number,
): Promise<Verdict> => {
  const body = signedRpcBody({
    action: 'VerifyIntelligentCaptcha',
    version: '2023-03-05',
    accessKeyId: config.accessKeyId,
    accessKeySecret: config.accessKeySecret,
    params: { CaptchaVerifyParam: captchaVerifyParam, SceneId: config.sceneId },
    now: new Date(nowMs),
  });
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

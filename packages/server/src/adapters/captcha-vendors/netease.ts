/**
 * NetEase Yidun captcha second check (verify API v2): form POST signed with
 * md5(sorted key+value pairs + secretKey). `result: true` is a pass.
 */
import { createHash, randomInt } from 'node:crypto';
import type { NeteaseConfig } from '../../config/captcha-config.ts';
import { callVendor, form, isRecord, pass, refuse, type Verdict } from './http.ts';

/** Yidun's signature: keys sorted, each key followed by its value, the secret key appended, md5 hex. */
export const neteaseSignature = (params: Record<string, string>, secretKey: string) => {
  const text = Object.keys(params)
    .filter((key) => key !== 'signature')
    .sort()
    .map((key) => `${key}${params[key] ?? ''}`)
    .join('');
  return createHash('md5')
    .update(text + secretKey, 'utf8')
    .digest('hex');
};

export const neteaseVerify = async (
  config: NeteaseConfig,
  validate: string,
  timeoutMs: number,
  nowMs: number,
): Promise<Verdict> => {
  const params: Record<string, string> = {
    captchaId: config.captchaId,
    validate,
    user: '',
    secretId: config.secretId,
    version: 'v2',
    timestamp: String(nowMs),
    nonce: String(randomInt(1, 2 ** 31)),
  };
  params.signature = neteaseSignature(params, config.secretKey);
  const answer = await callVendor(
    'NetEase',
    config.endpoint,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(params) },
    timeoutMs,
  );
  if (!isRecord(answer.json)) return refuse(`answered ${answer.status} without JSON`);
  return answer.json.result === true ? pass : refuse(`error ${String(answer.json.error)}: ${String(answer.json.msg)}`);
};

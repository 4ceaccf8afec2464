/**
 * Two-element real-name checks (a name and a mainland ID number against the vendor's register):
 * - Tencent Cloud FaceId `IdCardVerification` (API 3.0, version 2018-03-01, TC3-HMAC-SHA256): `Result`
 *   "0" match, "-1" mismatch, "-5" no record; "-2"/"-3" a number or name the register refuses;
 *   "-4", "-6", "-7" the register is out of reach or the day's limit is spent;
 * - Aliyun Cloudauth `Id2MetaVerify` (RPC, version 2019-03-07, signature 1.0 HMAC-SHA1):
 *   `Code` "200" with `ResultObject.BizCode` "1" match, "2" mismatch, "3" no record;
 * - `dev`: no vendor; a number with a valid check digit matches (development only).
 * The name and number go to the vendor and nowhere else: a failure carries the vendor's error code
 * and request id only, never its message (Aliyun's SignatureDoesNotMatch message quotes the signed
 * string, parameters and all).
 */
import { randomUUID } from 'node:crypto';
import type { RealnameConfig } from '../config/realname-config.ts';
import { signedRpcBody } from './aliyun-signature.ts';
import { fetchText, isRecord, jsonObject, ProviderUnreachableError, stringField } from './provider-http.ts';
import { tc3Headers } from './tencent-signature.ts';

export interface RealnameVerdict {
  match: 'match' | 'mismatch' | 'no_record';
  /** The vendor's request id, the reference an operator quotes to the vendor. */
  requestId: string;
}

/** The vendor did not give a verdict: unreachable, refused our keys, or its register is down. */
export class RealnameUnavailableError extends Error {
  constructor(
    readonly vendor: string,
    /** The vendor's error code (or `unreachable`), safe to log. */
    readonly vendorCode: string,
    readonly requestId: string | undefined,
    options?: ErrorOptions,
  ) {
    super(`${vendor} gave no real-name verdict (${vendorCode}${requestId ? `, request ${requestId}` : ''})`, options);
    this.name = 'RealnameUnavailableError';
  }
}

export type RealnameCheck = (name: string, idNumber: string) => Promise<RealnameVerdict>;

const answerOf = async (config: RealnameConfig, url: string, init: RequestInit) => {
  try {
    return await fetchText(url, init, config.timeoutMs);
  } catch (error) {
    if (error instanceof ProviderUnreachableError) {
      throw new RealnameUnavailableError(config.provider, error.timedOut ? 'timeout' : 'unreachable', undefined);
    }
    throw error;
  }
};

const TENCENT_VERDICTS: Record<string, RealnameVerdict['match']> = {
  '0': 'match',
  '-1': 'mismatch',
  '-2': 'mismatch',
  '-3': 'mismatch',
  '-5': 'no_record',
};

const tencent =
  (config: RealnameConfig): RealnameCheck =>
  async (name, idNumber) => {
    const action = 'IdCardVerification';
    const payload = JSON.stringify({ IdCard: idNumber, Name: name });
    const timestamp = Math.floor(Date.now() / 1000);
    const url = `${config.endpoint}/`;
    const answer = await answerOf(config, url, {
      method: 'POST',
      headers: tc3Headers({
        secretId: config.accessKeyId,
        secretKey: config.accessKeySecret,
        service: 'faceid',
        url,
        action,
        version: '2018-03-01',
        region: config.region,
        payload,
        timestamp,
      }),
      body: payload,
    });
    const response = jsonObject(answer.text)?.Response;
    if (!isRecord(response)) throw new RealnameUnavailableError('tencent', `HTTP ${answer.status}`, undefined);
    const requestId = stringField(response, 'RequestId');
    const error = response.Error;
    if (isRecord(error)) {
      throw new RealnameUnavailableError('tencent', stringField(error, 'Code') ?? 'Error', requestId);
    }
    const result = stringField(response, 'Result') ?? '';
    const match = TENCENT_VERDICTS[result];
    if (!match || !requestId) throw new RealnameUnavailableError('tencent', `Result ${result}`, requestId);
    return { match, requestId };
  };

const ALIYUN_VERDICTS: Record<string, RealnameVerdict['match']> = { '1': 'match', '2': 'mismatch', '3': 'no_record' };

const aliyun =
  (config: RealnameConfig): RealnameCheck =>
  async (name, idNumber) => {
    const body = signedRpcBody({
      action: 'Id2MetaVerify',
      version: '2019-03-07',
      regionId: config.region,
      accessKeyId: config.accessKeyId,
      accessKeySecret: config.accessKeySecret,
      params: { ParamType: 'normal', IdentifyNum: idNumber, UserName: name },
    });
    const answer = await answerOf(config, `${config.endpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const result = jsonObject(answer.text);
    if (!result) throw new RealnameUnavailableError('aliyun', `HTTP ${answer.status}`, undefined);
    const requestId = stringField(result, 'RequestId');
    const code = stringField(result, 'Code') ?? `HTTP ${answer.status}`;
    const object = result.ResultObject;
    const bizCode = isRecord(object) ? stringField(object, 'BizCode') : undefined;
    const match = bizCode === undefined ? undefined : ALIYUN_VERDICTS[bizCode];
    // 401: Aliyun found the name or number malformed, a mismatch for the guardian to correct.
    if (code === '401' && requestId) return { match: 'mismatch', requestId };
    if (code !== '200' || !match || !requestId) throw new RealnameUnavailableError('aliyun', code, requestId);
    return { match, requestId };
  };

/** GB 11643: the 18th character is the check digit of the first 17. */
export const validIdNumber = (idNumber: string) => {
  if (!/^\d{17}[\dX]$/.test(idNumber)) return false;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(idNumber[i]), 0);
  return '10X98765432'[sum % 11] === idNumber[17];
};

const dev = (): RealnameCheck => async (_name, idNumber) => ({
  match: validIdNumber(idNumber) ? 'match' : 'mismatch',
  requestId: `dev-${randomUUID()}`,
});

export const realnameCheck = (config: RealnameConfig): RealnameCheck =>
  config.provider === 'tencent' ? tencent(config) : config.provider === 'aliyun' ? aliyun(config) : dev();

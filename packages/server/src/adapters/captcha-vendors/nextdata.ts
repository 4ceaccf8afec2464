/**
 * NextData (Shumei) captcha second check: POST {accessKey, appId, rid} to fverify. The access key is
 * the credential (Shumei signs nothing else); code 1100 with riskLevel PASS is a pass.
 */
import type { NextdataConfig } from '../../config/captcha-config.ts';
import { callVendor, isRecord, pass, refuse, type Verdict } from './http.ts';

export const nextdataVerify = async (config: NextdataConfig, rid: string, timeoutMs: number): Promise<Verdict> => {
  const answer = await callVendor(
    'NextData',
    config.endpoint,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: config.accessKey, appId: config.appId, rid }),
    },
    timeoutMs,
  );
  if (!isRecord(answer.json)) return refuse(`answered ${answer.status} without JSON`);
  const { code, riskLevel } = answer.json;
  return code === 1100 && riskLevel === 'PASS' ? pass : refuse(`code ${String(code)}, riskLevel ${String(riskLevel)}`);
};

/**
 * Geetest v3 server side (the gt3 SDKs' protocol): register.php for a challenge, validate.php for the
 * second check. With digestmod md5 the page's challenge is md5(origin challenge + private key), and a
 * result is good when validate.php answers md5(seccode).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { GeetestConfig } from '../../config/captcha-config.ts';
import { callVendor, form, isRecord, pass, refuse, type Verdict } from './http.ts';

const md5 = (value: string) => createHash('md5').update(value).digest('hex');
const SDK = 'edupass-node-3.1.0';

export interface GeetestStart {
  gt: string;
  challenge: string;
  /** 1: Geetest answered; 0: it did not, and the page runs in offline (fallback) mode. */
  success: 0 | 1;
  new_captcha: boolean;
}

export const geetestRegister = async (config: GeetestConfig, ip: string, timeoutMs: number): Promise<GeetestStart> => {
  const query = form({
    gt: config.id,
    json_format: '1',
    new_captcha: '1',
    client_type: 'web',
    ip_address: ip,
    digestmod: 'md5',
    sdk: SDK,
  });
  try {
    const answer = await callVendor(
      'Geetest',
      `${config.apiUrl.replace(/\/$/, '')}/register.php?${query}`,
      { method: 'GET' },
      timeoutMs,
    );
    const origin = isRecord(answer.json) ? answer.json.challenge : undefined;
    if (answer.status === 200 && typeof origin === 'string' && /^[0-9a-f]{32}$/.test(origin)) {
      return { gt: config.id, challenge: md5(origin + config.key), success: 1, new_captcha: true };
    }
  } catch {
    // Unreachable: fall through to offline mode, as Geetest's SDKs do.
  }
  return { gt: config.id, challenge: md5(randomBytes(16).toString('hex')), success: 0, new_captcha: true };
};

export interface GeetestResult {
  challenge: string;
  validate: string;
  seccode: string;
}

export const geetestValidate = async (
  config: GeetestConfig,
  result: GeetestResult,
  ip: string,
  timeoutMs: number,
): Promise<Verdict> => {
  const answer = await callVendor(
    'Geetest',
    `${config.apiUrl.replace(/\/$/, '')}/validate.php`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({
        seccode: result.seccode,
        challenge: result.challenge,
        captchaid: config.id,
        json_format: '1',
        sdk: SDK,
        client_type: 'web',
        ip_address: ip,
      }),
    },
    timeoutMs,
  );
  const seccode = isRecord(answer.json) ? answer.json.seccode : undefined;
  if (answer.status !== 200 || typeof seccode !== 'string') return refuse(`validate.php answered ${answer.status}`);
  return seccode === md5(result.seccode) ? pass : refuse('seccode rejected');
};

/** Offline mode's local check (the SDKs' failback): validate must be md5 of the challenge. */
export const geetestOfflineValidate = (result: GeetestResult): Verdict =>
  result.validate === md5(result.challenge) ? pass : refuse('offline validate mismatch');

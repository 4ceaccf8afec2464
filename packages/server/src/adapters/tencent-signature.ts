/**
 * Tencent Cloud API 3.0 request signature (TC3-HMAC-SHA256): a canonical request over the method,
 * path (`/` at Tencent's endpoints), signed headers (content-type, host, x-tc-action) and the body's
 * SHA-256; signed with a key derived from the SecretKey, the UTC date, the service and `tc3_request`.
 * One signer for every Tencent Cloud API EduPass calls: SMS, voice calls, captcha and FaceId.
 */
import { createHash, createHmac } from 'node:crypto';

const sha256hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();

const CONTENT_TYPE = 'application/json; charset=utf-8';
const SIGNED_HEADERS = 'content-type;host;x-tc-action';

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  service: string;
  /** The address the request is posted to (its host and path are signed). */
  url: string;
  action: string;
  /** The API version of the action (`X-TC-Version`). */
  version: string;
  /** `X-TC-Region`, for the APIs that take one. */
  region?: string | undefined;
  payload: string;
  /** Unix seconds. */
  timestamp: number;
}

const authorization = (r: Tc3Request): string => {
  const { host, pathname } = new URL(r.url);
  const date = new Date(r.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = [
    'POST',
    pathname,
    '',
    `content-type:${CONTENT_TYPE}\nhost:${host}\nx-tc-action:${r.action.toLowerCase()}\n`,
    SIGNED_HEADERS,
    sha256hex(r.payload),
  ].join('\n');
  const scope = `${date}/${r.service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${r.timestamp}\n${scope}\n${sha256hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${r.secretKey}`, date), r.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${r.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
};

/** The headers of a signed JSON POST to `url`: Authorization, its content type and X-TC-*. */
export const tc3Headers = (r: Tc3Request): Record<string, string> => ({
  authorization: authorization(r),
  'content-type': CONTENT_TYPE,
  'x-tc-action': r.action,
  'x-tc-timestamp': String(r.timestamp),
  'x-tc-version': r.version,
  ...(r.region && { 'x-tc-region': r.region }),
});

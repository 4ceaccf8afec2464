/**
 * Tencent Cloud API 3.0 request signature (TC3-HMAC-SHA256): a canonical request over the method,
 * path, signed headers (content-type, host, x-tc-action) and the body's SHA-256; signed with a key
 * derived from the SecretKey, the UTC date, the service and `tc3_request`.
 */
import { createHash, createHmac } from 'node:crypto';

const sha256hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();

export const CONTENT_TYPE = 'application/json; charset=utf-8';
const SIGNED_HEADERS = 'content-type;host;x-tc-action';

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  action: string;
  payload: string;
  /** Unix seconds. */
  timestamp: number;
}

export const tc3Authorization = (r: Tc3Request): string => {
  const date = new Date(r.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${r.host}\nx-tc-action:${r.action.toLowerCase()}\n`,
    SIGNED_HEADERS,
    sha256hex(r.payload),
  ].join('\n');
  const scope = `${date}/${r.service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${r.timestamp}\n${scope}\n${sha256hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${r.secretKey}`, date), r.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${r.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
};

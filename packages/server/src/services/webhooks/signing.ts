/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of its key bytes; `webhook-signature` is `v1,` and the base64 HMAC-SHA256, under that key,
 * of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const KEY_BYTES = 32;

export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt; `timestampSeconds` is when it is sent. */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string): SignedHeaders => {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
};

/**
 * Checks a webhook delivery per the Standard Webhooks specification: the signature in
 * `webhook-signature` (`v1,<base64>`, several separated by spaces during a secret rotation) is
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>` with the endpoint's secret
 * (`whsec_<base64>`), and the timestamp is within the tolerance of now (5 minutes), so a captured
 * delivery cannot be replayed later. Pass the raw body, exactly as received, not re-serialised JSON.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.ts';

const SECRET_PREFIX = 'whsec_';
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface WebhookVerifyOptions {
  toleranceSeconds?: number;
  /** The clock, unix ms (tests). */
  now?: () => number;
}

type Headers = Record<string, string | string[] | undefined> | Headers_;
type Headers_ = { get(name: string): string | null };

const headerOf = (headers: Headers, name: string): string | undefined => {
  if (typeof (headers as Headers_).get === 'function') return (headers as Headers_).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? record[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

const secretBytes = (secret: string): Buffer => {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0)
    throw new WebhookVerificationError('secret_invalid', 'The webhook secret is empty or not base64.');
  return bytes;
};

/** The signature EduPass sends for a delivery (`v1,<base64>`). */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string | Buffer): string =>
  `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.`).update(body).digest('base64')}`;

/**
 * Verifies a delivery and answers its parsed JSON body; WebhookVerificationError otherwise. `headers`
 * may be Node's `request.headers` or a Fetch `Headers`.
 */
export const verifyWebhook = <T = unknown>(
  secret: string,
  body: string | Buffer,
  headers: Headers,
  options: WebhookVerifyOptions = {},
): T => {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'headers_missing',
      'webhook-id, webhook-timestamp and webhook-signature are required.',
    );
  }
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - seconds) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', 'The delivery is too old or from the future.');
  }
  const expected = Buffer.from(signWebhook(secret, id, seconds, body).slice(3), 'base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('signature_invalid', 'No webhook signature matches the secret.');
  return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as T;
};

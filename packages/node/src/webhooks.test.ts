/** Webhook verification against the reference implementation (the `standardwebhooks` package). */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.ts';
import { signWebhook, verifyWebhook } from './webhooks.ts';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({ type: 'user.updated', data: { id: 7, nickname: 'Ada' } });
const id = 'msg_2b7uV9';

const referenceHeaders = (at: Date, payload = body) => ({
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(id, at, payload),
});

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  throw new Error('expected a refusal');
};

describe('verifyWebhook', () => {
  it("accepts the reference implementation's signature and answers the body", () => {
    expect(verifyWebhook(secret, body, referenceHeaders(new Date()))).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(referenceHeaders(new Date())))).toEqual(
      JSON.parse(body),
    );
  });

  it('signs as the reference implementation verifies', () => {
    const now = new Date();
    const seconds = Math.floor(now.getTime() / 1000);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(seconds),
      'webhook-signature': signWebhook(secret, id, seconds, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, now, body));
  });

  it('accepts any matching signature among several (secret rotation)', () => {
    const headers = referenceHeaders(new Date());
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    const otherSignature = new Webhook(other).sign(id, new Date(Number(headers['webhook-timestamp']) * 1000), body);
    headers['webhook-signature'] = `${otherSignature} ${headers['webhook-signature']}`;
    expect(verifyWebhook(secret, body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(other, body, headers)).toEqual(JSON.parse(body));
  });

  it('refuses an altered body, another secret, missing headers and a timestamp beyond 5 minutes', () => {
    const headers = referenceHeaders(new Date());
    expect(codeOf(() => verifyWebhook(secret, body.replace('Ada', 'Eve'), headers))).toBe('signature_invalid');
    expect(codeOf(() => verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, body, headers))).toBe(
      'signature_invalid',
    );
    expect(codeOf(() => verifyWebhook(secret, body, { ...headers, 'webhook-id': 'msg_other' }))).toBe(
      'signature_invalid',
    );
    expect(codeOf(() => verifyWebhook(secret, body, { 'webhook-id': id }))).toBe('headers_missing');
    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000);
    expect(codeOf(() => verifyWebhook(secret, body, referenceHeaders(sixMinutesAgo)))).toBe(
      'timestamp_out_of_tolerance',
    );
    const fourMinutesAgo = new Date(Date.now() - 4 * 60_000);
    expect(verifyWebhook(secret, body, referenceHeaders(fourMinutesAgo))).toEqual(JSON.parse(body));
    // The injected clock decides what "now" is.
    expect(
      verifyWebhook(secret, body, referenceHeaders(sixMinutesAgo), { now: () => sixMinutesAgo.getTime() }),
    ).toEqual(JSON.parse(body));
  });
});

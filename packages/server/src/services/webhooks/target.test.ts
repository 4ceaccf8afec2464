/**
 * Webhook targets and SSRF: only http(s), no internal address by literal, and a name that resolves
 * inside is refused when the connection is made — not only when the URL is saved.
 */
import { hostname } from 'node:os';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postWebhook } from './sender.ts';
import { checkWebhookUrl, isInternalAddress } from './target.ts';

describe('addresses', () => {
  test.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    // NAT64 (RFC 6052, RFC 8215) and 6to4 (RFC 3056) carry an IPv4 address a gateway reaches.
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
  ])('%s is internal', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });
  test.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is not', (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });
});

describe('URLs', () => {
  test.each([
    'ftp://example.com/x',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'http://localhost:8080/x',
    'http://127.0.0.1/x',
    'http://[::1]/x',
    'http://169.254.169.254/latest/meta-data',
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'http://[2002:7f00:1::1]/x',
    'https://user:pw@example.com/x',
    'not a url',
  ])('%s is refused with E_1', (url) => {
    expect(() => checkWebhookUrl(url, false)).toThrow(expect.objectContaining({ code: 'E_1' }));
  });
  test('a public https URL passes; a loopback one passes when private targets are allowed', () => {
    expect(checkWebhookUrl('https://hooks.example.com/in', false).hostname).toBe('hooks.example.com');
    expect(checkWebhookUrl('http://127.0.0.1:9/in', true).hostname).toBe('127.0.0.1');
  });
});

describe('sending', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  const post = (url: string, allowPrivate: boolean) =>
    postWebhook({ url, headers: {}, body: '{}', timeoutMs: 5_000, allowPrivate });

  test('a host name that resolves to loopback is refused at connect time, and nothing arrives', async () => {
    const port = new URL(receiver.url).port;
    const result = await post(`http://${hostname()}:${port}/hooks`, false);
    expect(result).toMatchObject({ ok: false, status: 0 });
    expect(result.error).toMatch(/internal address/);
    expect(receiver.received).toHaveLength(0);
  });

  test('with private targets allowed the same name is delivered to', async () => {
    const port = new URL(receiver.url).port;
    expect(await post(`http://${hostname()}:${port}/hooks`, true)).toMatchObject({ ok: true, status: 204 });
    expect(receiver.received).toHaveLength(1);
  });
});

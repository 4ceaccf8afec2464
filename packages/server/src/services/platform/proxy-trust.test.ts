import { A, expectError, nextPhone, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const SEND = `${A}/captcha/register/phone/with-agreement`;
const LIMIT = 3;

/**
 * The per-IP send limit as seen through one proxy that appends the address it saw to whatever
 * X-Forwarded-For the client sent (nginx's $proxy_add_x_forwarded_for). The test client connects
 * from 127.0.0.1, which plays the proxy.
 */
const sendsThroughProxy = (trustProxy: false | number | string[]) => {
  const { call } = useTestServer({ trustProxy, codeIpHourlyLimit: LIMIT, codeResendSeconds: 0 });
  const send = (clientIp: string, spoofed?: string) =>
    call(
      'POST',
      SEND,
      { phone_number: nextPhone(), pid: PID },
      { headers: { 'x-forwarded-for': spoofed === undefined ? clientIp : `${spoofed}, ${clientIp}` } },
    );
  return send;
};

describe.each([
  ['a hop count', 1],
  ['the proxy address', ['127.0.0.1']],
  ['a CIDR range holding the proxy', ['127.0.0.0/8', '::1']],
] as const)('TRUST_PROXY as %s', (_label, trustProxy) => {
  const send = sendsThroughProxy(typeof trustProxy === 'number' ? trustProxy : [...trustProxy]);

  it('a spoofed left-most X-Forwarded-For changes nothing: the limit holds for the real client', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await send('203.0.113.7', `198.51.100.${i}`)).status).toBe(204);
    expectError(await send('203.0.113.7', '198.51.100.200'), 'AC3_23');
    expectError(await send('203.0.113.7'), 'AC3_23');
  });

  it('each client behind the proxy has its own limit (the site does not share the proxy IP)', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await send('203.0.113.8')).status).toBe(204);
    expectError(await send('203.0.113.8'), 'AC3_23');
    expect((await send('203.0.113.9', '203.0.113.8')).status).toBe(204);
  });
});

describe('TRUST_PROXY unset', () => {
  const send = sendsThroughProxy(false);

  it('ignores X-Forwarded-For: every caller is the connecting address', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await send(`203.0.113.${20 + i}`)).status).toBe(204);
    expectError(await send('203.0.113.99'), 'AC3_23');
  });
});

describe('TRUST_PROXY naming another proxy', () => {
  const send = sendsThroughProxy(['10.0.0.1']);

  it('does not believe X-Forwarded-For from an untrusted peer', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await send(`203.0.113.${40 + i}`)).status).toBe(204);
    expectError(await send('203.0.113.98'), 'AC3_23');
  });
});

/**
 * Per-address limits count an IPv6 client by its network (RATE_LIMIT_IPV6_PREFIX, /64): a client
 * holding a /64, as every IPv6 customer does, cannot take a fresh address for each attempt past the
 * code-send limit, the captcha's password-spraying count or the client-secret guesses. IPv4 clients
 * that a proxy writes as IPv4-mapped IPv6 keep a count each. The server sits behind a trusted proxy
 * (the test client at 127.0.0.1), which names the client in X-Forwarded-For.
 */
import { A, expectError, expectSignedIn, nextPhone, PASSWORD, PID, signUp } from '@edupass/test-kit/accounts';
import { captchaWith, useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const LIMIT = 3;
const { server, call } = useTestServer({
  trustProxy: ['127.0.0.1'],
  codeIpHourlyLimit: LIMIT,
  codeResendSeconds: 0,
  ...captchaWith({ '*:*': 'risk' }, { riskIpLoginFailures: LIMIT }),
});
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

const sendCode = (ip: string) =>
  call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: nextPhone(), pid: PID }, from(ip));

describe('code sends per address', () => {
  it('a client taking a new address of its /64 for each send meets CODE_IP_HOURLY_LIMIT; the next /64 does not', async () => {
    for (let i = 1; i <= LIMIT; i++) expect((await sendCode(`2001:db8:a:1::${i}`)).status).toBe(204);
    expectError(await sendCode('2001:db8:a:1:ffff:ffff:ffff:fffe'), 'AC3_23');
    expect((await sendCode('2001:db8:a:2::1')).status).toBe(204);
  });

  it('sends at once from twice the limit of addresses in one /64: the limit passes, the rest are refused', async () => {
    const answers = await Promise.all(Array.from({ length: LIMIT * 2 }, (_, i) => sendCode(`2001:db8:b:1::${i + 1}`)));
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(LIMIT);
    for (const answer of answers) if (answer.status !== 204) expectError(answer, 'AC3_23');
  });

  it('IPv4 clients written as IPv4-mapped IPv6 are counted each as its IPv4 address, not as one network', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await sendCode('::ffff:203.0.113.10')).status).toBe(204);
    expectError(await sendCode('203.0.113.10'), 'AC3_23');
    expect((await sendCode('::ffff:203.0.113.11')).status).toBe(204);
  });
});

describe('password spraying per address', () => {
  it('wrong passwords from new addresses of one /64 add up to CAPTCHA_RISK_IP_LOGIN_FAILURES; the next /64 is not asked', async () => {
    const owner = await signUp(server);
    const login = (identity: string, password: string, ip: string) =>
      call('POST', `${A}/login`, { identity, password, pid: PID }, from(ip));
    for (let i = 1; i <= LIMIT; i++) {
      expectError(await login(`spray_${i}_user`, 'Summer2024', `2001:db8:c:1:${i}::1`), 'AC3_2');
    }
    expectError(await login(owner.phone, PASSWORD, '2001:db8:c:1:ffff::1'), 'GCAP_1');
    expectSignedIn(await login(owner.phone, PASSWORD, '2001:db8:c:2::1'));
  });
});

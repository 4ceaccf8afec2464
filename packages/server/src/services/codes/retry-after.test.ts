/**
 * A code send refused by the resend wait or a limit says in how many seconds it may be tried again:
 * `retry_after` (whole seconds) in the catalogue's error body, and `Retry-After`.
 */
import { ClientCode } from '@edupass/protocol';
import { A, expectError, nextPhone, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { describe, expect, it } from 'vitest';

const SEND = `${A}/captcha/register/phone/with-agreement`;
const RESEND_SECONDS = 60;

// Each test sends from its own address (X-Forwarded-For, one proxy trusted), so the IP limit is its own.
const { call } = useTestServer({
  codeResendSeconds: RESEND_SECONDS,
  codeDailyLimit: 2,
  codeIpHourlyLimit: 5,
  trustProxy: 1,
});

/** The seconds the refusal tells, the same in the body and the header. */
const retryAfter = (answer: Answer) => {
  const seconds = (answer.body as { retry_after?: unknown }).retry_after;
  expect(Number.isInteger(seconds), JSON.stringify(answer.body)).toBe(true);
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  return seconds as number;
};

const send = (phone: string, path: string, ip: string) =>
  call('POST', path, { phone_number: phone, pid: PID }, { headers: { 'X-Forwarded-For': ip } });

describe('retry_after on refused code sends', () => {
  it('within the resend wait: AC3_23 with the seconds left of it', async () => {
    const phone = nextPhone();
    expect((await send(phone, SEND, '203.0.113.1')).status).toBe(204);
    const refused = await send(phone, SEND, '203.0.113.1');
    expectError(refused, 'AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY);
    const seconds = retryAfter(refused);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(RESEND_SECONDS);
  });

  it('past the daily limit: AC3_48 with the seconds left of the day window', async () => {
    const phone = nextPhone();
    expect((await send(phone, SEND, '203.0.113.2')).status).toBe(204);
    expect((await send(phone, `${A}/captcha/common`, '203.0.113.2')).status).toBe(204);
    const refused = await send(phone, `${A}/captcha/login/silence`, '203.0.113.2');
    expectError(refused, 'AC3_48', ClientCode.CAPTCHA_SEND_LIMIT);
    const seconds = retryAfter(refused);
    expect(seconds).toBeGreaterThan(RESEND_SECONDS);
    expect(seconds).toBeLessThanOrEqual(86_400);
  });

  it('past the hourly limit of the IP: AC3_23 with the seconds left of the hour', async () => {
    const ip = '203.0.113.77';
    let last = await send(nextPhone(), SEND, ip);
    for (let i = 0; i < 6 && last.status === 204; i++) last = await send(nextPhone(), SEND, ip);
    expectError(last, 'AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY);
    const seconds = retryAfter(last);
    expect(seconds).toBeGreaterThan(RESEND_SECONDS);
    expect(seconds).toBeLessThanOrEqual(3600);
  });

  it('a send refused before anything was sent starts no resend wait', async () => {
    // An unregistered number asked for a reset code: refused twice alike, not "too often" the second time.
    const phone = nextPhone();
    const reset = `${A}/captcha/password/reset`;
    expectError(await send(phone, reset, '203.0.113.3'), 'AC3_1', ClientCode.PHONE_UNREGISTERED);
    const again = await send(phone, reset, '203.0.113.3');
    expectError(again, 'AC3_1', ClientCode.PHONE_UNREGISTERED);
    expect(again.body).not.toHaveProperty('retry_after');
  });

  it('other refusals carry no retry_after', async () => {
    const answer = await call('POST', SEND, { phone_number: '12345', pid: PID });
    expectError(answer, 'E_1', ClientCode.INVALID_PHONE);
    expect(answer.body).not.toHaveProperty('retry_after');
  });
});

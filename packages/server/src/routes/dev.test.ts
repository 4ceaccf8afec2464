/** The dev outbox: readable in development, absent in production. */

import { A, client, expectError, nextPhone, PID } from '@edupass/test-kit/accounts';
import { startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const { call } = useTestServer();

describe('GET /dev/outbox', () => {
  it('lists the codes sent to a phone, newest first, as [{to, channel, text, code, sent_at}]', async () => {
    const phone = nextPhone();
    await call('POST', `${A}/captcha/common`, { phone_number: phone, pid: PID });
    await call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID });
    const answer = await call<{ to: string; channel: string; text: string; code: string; sent_at: number }[]>(
      'GET',
      `/dev/outbox?to=${phone}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(2);
    for (const row of answer.body) {
      expect(row).toEqual({
        to: phone,
        channel: 'sms',
        text: expect.any(String),
        code: expect.any(String),
        sent_at: expect.any(Number),
      });
      expect(row.text).toContain(row.code);
    }
    // The newest is the sign-up code: its text says what it is for in plain words, not the scene id.
    expect(answer.body[0]?.text).toContain('to sign up');
    expect(answer.body[0]?.text).not.toContain('register');
  });

  it('without ?to= is E_1', async () => {
    expectError(await call('GET', '/dev/outbox'), 'E_1');
  });

  it('does not exist in production', async () => {
    const production = await startTestServer({ production: true });
    try {
      expectError(await client(production.url)('GET', `/dev/outbox?to=${nextPhone()}`), 'E_2');
    } finally {
      await production.close();
    }
  });
});

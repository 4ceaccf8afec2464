/**
 * Enumeration is throttled: the answers that tell whether a phone or e-mail is registered (AC3_0,
 * AC3_1, AC3_61) or blocked (AC3_44) count against the same per-IP and per-identity limits as the
 * code sends they stand in for, and the code checks tell an unregistered phone from a wrong code no
 * more. A refusal that tells (not registered, already registered) counts per IP besides: past
 * CAPTCHA_RISK_IP_REFUSALS the IP meets the captcha, past CODE_IP_REFUSAL_HOURLY_LIMIT every send from it
 * answers AC3_23 — well before the 300 sends of CODE_IP_HOURLY_LIMIT. Limits as shipped
 * (CODE_IP_HOURLY_LIMIT 300, CODE_DAILY_LIMIT 10); resend interval off so each probe meets the limit under test.
 */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import { blockUser, expectError, nextEmail, nextPhone, PID, signUp, signUpByEmail } from '@edupass/test-kit/accounts';
import { captchaWith, startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { describe, expect, it } from 'vitest';

const SHIPPED_LIMITS = { codeIpHourlyLimit: 300, codeDailyLimit: 10 };

const tally = (answers: Answer[]) => {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const code = answer.status === 204 ? '204' : String((answer.body as { error_code?: string }).error_code);
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
};

describe('400 probes from one address (policy never: the send limits alone)', () => {
  const { server, call } = useTestServer({ ...SHIPPED_LIMITS, ...captchaWith({ '*:*': 'never' }) });

  it('"is this phone registered?" by login-code sends: CODE_IP_REFUSAL_HOURLY_LIMIT answered, then AC3_23 for any phone', {
    timeout: 120_000,
  }, async () => {
    const registered = await signUp(server);
    const answers: Answer[] = [];
    for (let i = 0; i < 400; i++) {
      answers.push(await call('POST', `${A}/captcha/login/post-process`, { phone_number: nextPhone(), pid: PID }));
    }
    const limit = server.config.codeIpRefusalHourlyLimit;
    expect(limit).toBeLessThanOrEqual(60);
    expect(tally(answers)).toEqual({ AC3_1: limit, AC3_23: 400 - limit });
    expectError(answers[399] as Answer, 'AC3_23');
    // A registered phone now answers the same: the limit tells nothing either.
    const known = await call('POST', `${A}/captcha/login/post-process`, { phone_number: registered.phone, pid: PID });
    expectError(known, 'AC3_23');
  });
});

describe('probes in parallel count atomically', () => {
  // A limit below the burst, to see that the parallel probes are counted one by one.
  const { server, call } = useTestServer({
    ...SHIPPED_LIMITS,
    codeIpHourlyLimit: 30,
    ...captchaWith({ '*:*': 'never' }),
  });

  it('100 parallel reset-code probes answer AC3_1 at most 30 times', async () => {
    expect(server.config.codeIpRefusalHourlyLimit).toBeGreaterThan(server.config.codeIpHourlyLimit);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call('POST', `${A}/captcha/password/reset`, { phone_number: nextPhone(), pid: PID }),
      ),
    );
    const counts = tally(answers);
    expect(counts.AC3_1).toBe(server.config.codeIpHourlyLimit);
    expect(counts.AC3_23).toBe(100 - server.config.codeIpHourlyLimit);
  });
});

describe('one identity probed again and again meets its daily limit', () => {
  const { server, call } = useTestServer({
    ...SHIPPED_LIMITS,
    codeIpHourlyLimit: 1000,
    ...captchaWith({ '*:*': 'never' }),
  });

  it('AC3_0 (registered phone) for a register code: 10 answers, then AC3_48', async () => {
    const { phone } = await signUp(server);
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(await call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID }));
    }
    // The sign-up's own code was the first of the day's 10.
    expect(tally(answers)).toEqual({
      AC3_0: server.config.codeDailyLimit - 1,
      AC3_48: 16 - server.config.codeDailyLimit,
    });
  });

  it('AC3_61 (registered e-mail): the same', async () => {
    const { email } = await signUpByEmail(server);
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) answers.push(await call('POST', `${A}/email/captcha/send`, { email, pid: PID }));
    expect(tally(answers)).toEqual({
      AC3_61: server.config.codeDailyLimit - 1,
      AC3_48: 16 - server.config.codeDailyLimit,
    });
  });

  it('AC3_44 (blocked account): the same', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(await call('POST', `${A}/captcha/login/silence`, { phone_number: account.phone, pid: PID }));
    }
    expect(tally(answers)).toEqual({
      AC3_44: server.config.codeDailyLimit - 1,
      AC3_48: 16 - server.config.codeDailyLimit,
    });
  });

  it('AC3_1 (an unregistered phone) probed 15 times: 10 answers, then AC3_48', async () => {
    const phone = nextPhone();
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) {
      answers.push(await call('POST', `${A}/captcha/login/post-process`, { phone_number: phone, pid: PID }));
    }
    expect(tally(answers)).toEqual({ AC3_1: server.config.codeDailyLimit, AC3_48: 15 - server.config.codeDailyLimit });
  });
});

describe('the code checks do not tell registered phones apart', () => {
  const { server, call } = useTestServer(captchaWith({ '*:*': 'never' }));

  it('a registered and an unregistered phone both answer AC3_13 to a made-up code', async () => {
    const { phone } = await signUp(server);
    for (const path of ['phone/login/post-process', 'captcha/password/check']) {
      for (const target of [phone, nextPhone()]) {
        expectError(
          await call('POST', `${A}/${path}`, { phone_number: target, captcha: '000000', pid: PID }),
          'AC3_13',
        );
      }
    }
  });
});

describe('400 probes from one address under the default policy (risk)', () => {
  const { server, call } = useTestServer({ ...SHIPPED_LIMITS, ...captchaWith({ '*:*': 'risk' }) });

  it('reset-code probes of unregistered phones: CAPTCHA_RISK_IP_REFUSALS answered, then every probe needs a solved captcha', {
    timeout: 120_000,
  }, async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 400; i++) {
      answers.push(await call('POST', `${A}/captcha/password/reset`, { phone_number: nextPhone(), pid: PID }));
    }
    const refusals = server.config.captcha.riskIpRefusals;
    expect(tally(answers)).toEqual({ AC3_1: refusals, GCAP_1: 400 - refusals });
  });

  it('login-code probes of unregistered phones raise the risk: CAPTCHA_RISK_IP_REFUSALS answered, then the captcha', {
    timeout: 120_000,
  }, async () => {
    const fresh = await startTestServer({ ...SHIPPED_LIMITS, ...captchaWith({ '*:*': 'risk' }) });
    try {
      const probe = client(fresh.url);
      const answers: Answer[] = [];
      for (let i = 0; i < 100; i++) {
        answers.push(await probe('POST', `${A}/captcha/login/post-process`, { phone_number: nextPhone(), pid: PID }));
      }
      const refusals = fresh.config.captcha.riskIpRefusals;
      expect(refusals).toBeLessThanOrEqual(20);
      expect(tally(answers)).toEqual({ AC3_1: refusals, GCAP_1: 100 - refusals });
    } finally {
      await fresh.close();
    }
  });

  it('e-mail probes too', { timeout: 120_000 }, async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++)
      answers.push(await call('POST', `${A}/email/captcha/send`, { email: nextEmail(), pid: PID }));
    expect(tally(answers)).toEqual({ GCAP_1: 10 });
  });
});

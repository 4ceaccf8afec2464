/**
 * The `risk` thresholds of code sends: a classroom behind one NAT address asks for its codes without a
 * puzzle; SMS pumping — many numbers from one address, or one number again and again — meets it.
 */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import { expectError, nextPhone, PID } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { afterEach, describe, expect, it } from 'vitest';

import { usePolicy, withTicket } from './captcha-enforcement.test-setup.ts';

describe('policy risk on code sends', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  // One proxy trusted: a test may send as other addresses (X-Forwarded-For).
  const start = async () => {
    const fresh = await startTestServer({ trustProxy: 1 });
    servers.push(fresh);
    await usePolicy(fresh, 'risk');
    return { fresh, call: client(fresh.url) };
  };

  it('a classroom of 40 behind one address each asks for an SMS sign-in code twice: no puzzle', async () => {
    const { call } = await start();
    const phones = Array.from({ length: 40 }, () => nextPhone());
    const askTwice = async (phone: string) => {
      const answers = [];
      for (let i = 0; i < 2; i++) {
        // As the web client does: the rule, then the send with the ticket it handed out.
        const rule = await call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
          identity: phone,
          scene: 'silence',
          pid: PID,
          capabilities: ['SLIDE'],
        });
        expect(rule.body.rule).toBe('DEFAULT');
        answers.push(
          await call(
            'POST',
            `${A}/captcha/login/silence`,
            { phone_number: phone, pid: PID },
            withTicket(rule.body.ticket),
          ),
        );
      }
      return answers;
    };
    const answers = (await Promise.all(phones.map(askTwice))).flat();
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 204));
  }, 120_000);

  it('code sends from one address: CAPTCHA_RISK_IP_SENDS pass unchallenged, even in a parallel burst', async () => {
    const { fresh, call } = await start();
    await usePolicy(fresh, 'risk');
    const limit = fresh.config.captcha.riskIpSends;
    const phones = Array.from({ length: limit + 10 }, () => nextPhone());
    const answers = await Promise.all(
      phones.map((phone) =>
        call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID }),
      ),
    );
    expect(answers.filter((a) => a.status === 204)).toHaveLength(limit);
    for (const answer of answers.filter((a) => a.status !== 204)) expectError(answer, 'GCAP_1');
    // Past the threshold the rule puts up the puzzle, and a solved one sends.
    const phone = nextPhone();
    const rule = await call<{ rule: string }>('POST', '/captcha/rule/v3', {
      identity: phone,
      scene: 'register',
      capabilities: ['SLIDE'],
    });
    expect(rule.body.rule).toBe('SLIDE');
    const ticket = await solveSlideTicket(fresh, 'register', phone);
    const sent = await call(
      'POST',
      `${A}/captcha/register/phone/with-agreement`,
      { phone_number: phone, pid: PID },
      withTicket(ticket),
    );
    expect(sent.status).toBe(204);
  });

  it('one number asked again and again meets the puzzle after CAPTCHA_RISK_PHONE_SENDS, whatever the address', async () => {
    const { fresh, call } = await start();
    const limit = fresh.config.captcha.riskPhoneSends;
    expect(limit).toBe(3);
    const phone = nextPhone();
    // Each send from another address: the count is the number's.
    let host = 0;
    const send = (ticket?: string) =>
      call(
        'POST',
        `${A}/captcha/register/phone/with-agreement`,
        { phone_number: phone, pid: PID },
        { headers: { ...withTicket(ticket).headers, 'X-Forwarded-For': `198.51.100.${++host}` } },
      );
    for (let i = 0; i < limit; i++) expect((await send()).status).toBe(204);
    expectError(await send(), 'GCAP_1');
    const rule = await call<{ rule: string }>('POST', '/captcha/rule/v3', {
      identity: phone,
      scene: 'register',
      capabilities: ['SLIDE'],
    });
    expect(rule.body.rule).toBe('SLIDE');
    // A person who solves the puzzle still gets the code; another number is unaffected.
    expect((await send(await solveSlideTicket(fresh, 'register', phone))).status).toBe(204);
    const other = nextPhone();
    expect(
      (await call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: other, pid: PID })).status,
    ).toBe(204);
  });

  it('parallel sends to one number: only CAPTCHA_RISK_PHONE_SENDS pass without a puzzle', async () => {
    const { fresh, call } = await start();
    const phone = nextPhone();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID }),
      ),
    );
    expect(answers.filter((a) => a.status === 204)).toHaveLength(fresh.config.captcha.riskPhoneSends);
    for (const answer of answers.filter((a) => a.status !== 204)) expectError(answer, 'GCAP_1');
  });
});

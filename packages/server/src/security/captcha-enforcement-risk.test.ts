/**
 * The `risk` captcha thresholds: a classroom behind one address is not challenged, repeated failures
 * on one account and password spraying from one address are; slide puzzles per address; the counters
 * in Redis.
 */
import { ACCOUNTS_BASE as A, type TotpSetup } from '@edupass/protocol';
import { expectError, expectSignedIn, nextPhone, PASSWORD, PID, signUp } from '@edupass/test-kit/accounts';
import { captchaWith, startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { floodPasswordChecks, type PasswordFlood } from '@edupass/test-kit/password-flood';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { usePolicy, withTicket } from './captcha-enforcement.test-setup.ts';

const riskServer = async () => {
  const fresh = await startTestServer();
  return { fresh, call: client(fresh.url) };
};

describe('policy risk thresholds', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const start = async () => {
    const made = await riskServer();
    servers.push(made.fresh);
    return made;
  };

  it('a classroom of 40 behind one address signs in without a challenge, typos included', async () => {
    const { fresh, call } = await start();
    const pupils = [];
    for (let i = 0; i < 40; i++) pupils.push(await signUp(fresh));
    await usePolicy(fresh, 'risk');
    const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });
    const rule = (identity: string) =>
      call<{ rule: string }>('POST', '/captcha/rule/v3', { identity, scene: 'login', capabilities: ['SLIDE'] });
    const answers = await Promise.all(
      pupils.map(async (pupil, i) => {
        // Every pupil mistypes once, every other one twice: 60 wrong passwords from the address.
        for (let typo = 0; typo < (i % 2 === 0 ? 2 : 1); typo++) {
          expectError(await login(pupil.phone, `Typo${typo}2345`), 'AC3_2');
        }
        expect((await rule(pupil.phone)).body.rule).toBe('DEFAULT');
        return login(pupil.phone, PASSWORD);
      }),
    );
    for (const answer of answers) expectSignedIn(answer);
  }, 180_000);

  it('one account: three wrong passwords are no challenge, the fourth attempt is; a solved one goes on', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const login = (password: string, ticket?: string) =>
      call('POST', `${A}/login`, { identity: account.phone, password, pid: PID }, withTicket(ticket));
    const rule = () =>
      call<{ rule: string }>('POST', '/captcha/rule/v3', {
        identity: account.phone,
        scene: 'login',
        capabilities: ['SLIDE'],
      });
    expect(fresh.config.captcha.riskLoginFailures).toBe(3);
    for (let i = 0; i < 3; i++) {
      expect((await rule()).body.rule).toBe('DEFAULT');
      expectError(await login('Wrong1234'), 'AC3_2');
    }
    expect((await rule()).body.rule).toBe('SLIDE');
    expectError(await login(PASSWORD), 'GCAP_1');
    expectSignedIn(await login(PASSWORD, await solveSlideTicket(fresh, 'login', account.phone)));
    // A success ends the run: the next sign-in is ordinary again.
    expectSignedIn(await login(PASSWORD));
  });

  it('an account with an authenticator app signs in ten times in an hour without a puzzle: a right password answered with the second step counts as a success', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token: account.token });
    const confirmed = await call(
      'POST',
      `${A}/second-factor/totp/confirm`,
      {
        code: totpCode(setup.body.secret, stepAt(Date.now())),
      },
      { token: account.token },
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    await usePolicy(fresh, 'risk');
    for (let i = 0; i < 10; i++) {
      const answer = await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID });
      expect(answer.body, `sign-in ${i + 1}`).toMatchObject({ error_code: 'E_11', mfa_challenge: expect.any(String) });
    }
  });

  it('a parallel burst of 30 wrong passwords on one account reaches the password check only CAPTCHA_RISK_LOGIN_FAILURES times', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', `${A}/login`, { identity: account.phone, password: 'Wrong1234', pid: PID }),
      ),
    );
    const checked = answers.filter((a) => (a.body as { error_code?: string }).error_code === 'AC3_2');
    expect(checked).toHaveLength(fresh.config.captcha.riskLoginFailures);
    for (const answer of answers) {
      if (!checked.includes(answer)) expectError(answer, 'GCAP_1');
    }
  });

  it('a burst: sign-ins answered "busy, try again" (E_10) are no attempts; after more of them than the run allows, the right password signs in without a puzzle', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const login = () => call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID });
    const tries = fresh.config.captcha.riskLoginFailures + 1;
    // The queue already full when the sign-in arrives: answered before anything is counted.
    const flood = floodPasswordChecks();
    for (let i = 0; i < tries; i++) expectError(await login(), 'E_10');
    await flood.drained;
    // The queue filling while the sign-in is on its way, after the gate counted it and before its
    // password is checked (as a burst arriving meanwhile does): the count is given back.
    // The gate counts the account's run with the sign-in lock's place, in one write.
    const counters = fresh.app.ctx.counters;
    const hitThenPeek = counters.hitThenPeek;
    const floods: PasswordFlood[] = [];
    counters.hitThenPeek = async (key, seconds, other, alongside) => {
      const counts = await hitThenPeek.call(counters, key, seconds, other, alongside);
      if (alongside?.key.startsWith('captcha-risk:login:')) floods.push(floodPasswordChecks());
      return counts;
    };
    try {
      for (let i = 0; i < tries; i++) {
        expectError(await login(), 'E_10');
        await Promise.all(floods.splice(0).map((f) => f.drained));
      }
      expect(floods).toEqual([]);
    } finally {
      counters.hitThenPeek = hitThenPeek;
    }
    expectSignedIn(await login());
  }, 180_000);

  it('password spraying from one address across many accounts meets the puzzle after CAPTCHA_RISK_IP_LOGIN_FAILURES', async () => {
    const { fresh, call } = await start();
    const owner = await signUp(fresh);
    const sprayed: string[] = [];
    for (let i = 0; i < 10; i++) sprayed.push((await signUp(fresh)).phone);
    await usePolicy(fresh, 'risk');
    const limit = fresh.config.captcha.riskIpLoginFailures;
    // One common password against each account once: real accounts and guessed names alike.
    const targets = Array.from({ length: limit }, (_, i) => sprayed[i] ?? `spray_${i}_user`);
    for (const identity of targets) {
      expectError(await call('POST', `${A}/login`, { identity, password: 'Summer2024', pid: PID }), 'AC3_2');
    }
    // Any account from that address now needs a challenge, its owner included, and the rule says so.
    expectError(await call('POST', `${A}/login`, { identity: owner.phone, password: PASSWORD, pid: PID }), 'GCAP_1');
    const rule = await call<{ rule: string }>('POST', '/captcha/rule/v3', {
      identity: `spray_next_user`,
      scene: 'login',
      capabilities: ['SLIDE'],
    });
    expect(rule.body.rule).toBe('SLIDE');
    expectSignedIn(
      await call(
        'POST',
        `${A}/login`,
        { identity: owner.phone, password: PASSWORD, pid: PID },
        withTicket(await solveSlideTicket(fresh, 'login', owner.phone)),
      ),
    );
  }, 180_000);
});

describe('a classroom under policy always', () => {
  it('40 pupils behind one address can each draw a slide puzzle; CAPTCHA_SLIDE_IP_PER_MINUTE is the ceiling', async () => {
    const fresh = await startTestServer(captchaWith({ '*:*': 'always' }));
    const draw = () => client(fresh.url)('POST', '/captcha/slide/challenge', { scene: 'login', identity: nextPhone() });
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, draw));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      fresh.config.captcha.slideIpPerMinute = 40;
      expectError(await draw(), 'AC3_23');
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;

describe.runIf(redisUrl)('policy risk with the counters in Redis', () => {
  let redisServer: TestServer;
  beforeAll(async () => {
    redisServer = await startTestServer({ redisUrl, ...captchaWith({ '*:*': 'risk' }) });
  });
  afterAll(() => redisServer?.close());

  it('a parallel burst of 30 guesses on one identity reaches the password check only CAPTCHA_RISK_LOGIN_FAILURES times', async () => {
    // An identity no other run shares (Redis outlives the test databases).
    const identity = `burst_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        client(redisServer.url)('POST', `${A}/login`, { identity, password: 'Wrong1234', pid: PID }),
      ),
    );
    const codes = answers.map((a) => (a.body as { error_code?: string }).error_code);
    expect(codes.filter((c) => c === 'AC3_2')).toHaveLength(redisServer.config.captcha.riskLoginFailures);
    expect(codes.filter((c) => c === 'GCAP_1')).toHaveLength(30 - redisServer.config.captcha.riskLoginFailures);
  });
});

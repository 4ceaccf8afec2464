/**
 * The `risk` captcha thresholds: a classroom behind one address is not challenged, repeated failures
 * on one account and password spraying from one address are; slide puzzles per address; the counters
 * in Redis.
 */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import { expectError, expectSignedIn, nextPhone, PASSWORD, PID, signUp } from '@edupass/test-kit/accounts';
import { captchaWith, startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { usePolicy, withTicket } from './captcha-enforcement-setup.ts';

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

  it('a classroom of 40 behind one address signs in without a challenge, a few after one typo', async () => {
    const { fresh, call } = await start();
    const pupils = [];
    for (let i = 0; i < 40; i++) pupils.push(await signUp(fresh));
    await usePolicy(fresh, 'risk');
    const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });
    const answers = await Promise.all(
      pupils.map(async (pupil, i) => {
        if (i % 4 === 0) expectError(await login(pupil.phone, 'Typo12345'), 'AC3_2');
        return login(pupil.phone, PASSWORD);
      }),
    );
    for (const answer of answers) expectSignedIn(answer);
  }, 180_000);

  it('one account: the first wrong password is no challenge, the third attempt is; a solved one goes on', async () => {
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
    expectError(await login('Wrong1234'), 'AC3_2');
    expect((await rule()).body.rule).toBe('DEFAULT');
    expectError(await login('Wrong1234'), 'AC3_2');
    expect((await rule()).body.rule).toBe('SLIDE');
    expectError(await login(PASSWORD), 'GCAP_1');
    expectSignedIn(await login(PASSWORD, await solveSlideTicket(fresh, 'login', account.phone)));
    // A success ends the run: the next sign-in is ordinary again.
    expectSignedIn(await login(PASSWORD));
  });

  it('a parallel burst of 30 wrong passwords on one account reaches the password check only twice', async () => {
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

  it('password spraying from one address is challenged after CAPTCHA_RISK_IP_LOGIN_FAILURES wrong passwords', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const limit = fresh.config.captcha.riskIpLoginFailures;
    for (let i = 0; i < limit; i++) {
      expectError(
        await call('POST', `${A}/login`, { identity: `spray_${i}_user`, password: 'Summer2024', pid: PID }),
        'AC3_2',
      );
    }
    // Any account from that address now needs a challenge, its owner included.
    expectError(await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }), 'GCAP_1');
  }, 180_000);

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

  it('a parallel burst of 30 guesses on one identity reaches the password check only twice', async () => {
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

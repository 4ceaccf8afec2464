/**
 * A locked account is answered by its lock: E_5 carrying the seconds left (`retry_after` in the
 * catalogue's error body and `Retry-After`, as the code send limits do), with no puzzle asked first —
 * the rule service hands out no challenge for it and the gate lets the lock answer. The lock itself
 * still checks no password while it holds, and lifts when its time is up.
 */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import { expectError, expectSignedIn, PASSWORD, PID, signUp } from '@edupass/test-kit/accounts';
import { captchaWith, startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { describe, expect, it } from 'vitest';
import { withTicket } from './captcha-enforcement.test-setup.ts';

const LOCK_AFTER = 10;
const LOCK_SECONDS = 900;
let offset = 0;
const { server, call } = useTestServer(
  {
    loginLockAfter: LOCK_AFTER,
    loginSlowdownAfter: 5,
    loginLockSeconds: LOCK_SECONDS,
    ...captchaWith({ '*:*': 'risk' }),
  },
  { now: () => Date.now() + offset },
);

/** The seconds a refusal tells, the same in the body and the header. */
const retryAfter = (answer: Answer) => {
  const seconds = (answer.body as { retry_after?: unknown }).retry_after;
  expect(Number.isInteger(seconds), JSON.stringify(answer.body)).toBe(true);
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  return seconds as number;
};

const rule = (identity: string) =>
  call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
    identity,
    scene: 'login',
    pid: PID,
    capabilities: ['SLIDE'],
  });

/** login/security as the web client does it: the rule first, a puzzle only when the rule asks for one. */
const webSignIn = async (identity: string, password: string) => {
  const asked = await rule(identity);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  const ticket = asked.body.rule === 'DEFAULT' ? asked.body.ticket : await solveSlideTicket(server, 'login', identity);
  const answer = await call('POST', `${A}/login/security`, { identity, password, pid: PID }, withTicket(ticket));
  return { rule: asked.body.rule, answer };
};

/** Guesses wrong through the web's flow until the lock answers; the answers' rules, in order. */
const lockOut = async (identity: string) => {
  const rules: string[] = [];
  for (let i = 0; i < LOCK_AFTER; i++) {
    const { rule: asked, answer } = await webSignIn(identity, `Wrong${i}pass`);
    rules.push(asked);
    expectError(answer, 'AC3_2');
  }
  return rules;
};

describe('a locked sign-in', () => {
  it('three wrong passwords pass without a puzzle, then puzzles, then the lock: E_5 with the seconds left', async () => {
    const { phone } = await signUp(server);
    const rules = await lockOut(phone);
    expect(rules.slice(0, 3)).toEqual(['DEFAULT', 'DEFAULT', 'DEFAULT']);
    expect(rules.slice(3).every((r) => r === 'SLIDE')).toBe(true);

    // Locked: the rule asks no puzzle, and the sign-in — the right password included — is the lock's answer.
    const { rule: asked, answer } = await webSignIn(phone, PASSWORD);
    expect(asked).toBe('DEFAULT');
    expectError(answer, 'E_5');
    const seconds = retryAfter(answer);
    expect(seconds).toBeGreaterThan(LOCK_SECONDS - 120);
    expect(seconds).toBeLessThanOrEqual(LOCK_SECONDS);
    expect((answer.body as { error_message: string }).error_message).toMatch(/Try again in 1[45] minutes\./);

    // The plain sign-in without any ticket is answered the same way (no GCAP_1 before the lock).
    const plain = await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID });
    expectError(plain, 'E_5');
    expect(retryAfter(plain)).toBeLessThanOrEqual(seconds);
  });

  it('counts down, and lifts when its time is up (the right password then signs in, after a puzzle)', async () => {
    const { phone } = await signUp(server);
    await lockOut(phone);
    const first = retryAfter((await webSignIn(phone, PASSWORD)).answer);
    offset += 300_000;
    try {
      const later = (await webSignIn(phone, PASSWORD)).answer;
      expectError(later, 'E_5');
      expect(retryAfter(later)).toBeLessThanOrEqual(first - 299);
      offset += (first - 300 + 1) * 1000;
      const after = await webSignIn(phone, PASSWORD);
      // The unchallenged allowance was spent by the guesses: the first sign-in after the lock is challenged.
      expect(after.rule).toBe('SLIDE');
      expectSignedIn(after.answer);
    } finally {
      offset = 0;
    }
  });

  it('the ways out stay open without a puzzle: a sign-in code by SMS (either kind) for the locked phone', async () => {
    const { phone } = await signUp(server);
    await lockOut(phone);
    for (const [scene, path] of [
      ['login', 'captcha/login/post-process'],
      ['silence', 'captcha/login/silence'],
    ] as const) {
      const asked = await call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
        identity: phone,
        scene,
        pid: PID,
        capabilities: ['SLIDE'],
      });
      expect(asked.body.rule, scene).toBe('DEFAULT');
      const sent = await call('POST', `${A}/${path}`, { phone_number: phone, pid: PID }, withTicket(asked.body.ticket));
      expect(sent.status, `${scene}: ${JSON.stringify(sent.body)}`).toBe(204);
    }
  });

  it('an unknown identity locks the same way (the answer tells no account apart)', async () => {
    const identity = `nobody_${Date.now().toString(36)}`;
    await lockOut(identity);
    const { rule: asked, answer } = await webSignIn(identity, PASSWORD);
    expect(asked).toBe('DEFAULT');
    expectError(answer, 'E_5');
    expect(retryAfter(answer)).toBeGreaterThan(0);
  });

  it('a parallel burst at a locked account is all E_5 with retry_after, none checked', async () => {
    const { phone } = await signUp(server);
    await lockOut(phone);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', `${A}/login`, { identity: phone, password: i === 7 ? PASSWORD : `Wrong${i}pass`, pid: PID }),
      ),
    );
    for (const answer of answers) {
      expectError(answer, 'E_5');
      expect(retryAfter(answer)).toBeGreaterThan(0);
    }
  });
});

describe('the slide puzzle ration per address', () => {
  it('refuses past CAPTCHA_SLIDE_IP_PER_MINUTE with AC3_23 and the seconds left of the minute', async () => {
    // A server of its own: the clock of the suite above moves, and its puzzles count against the address.
    const own = await startTestServer(captchaWith({ '*:*': 'always' }, { slideIpPerMinute: 2 }));
    try {
      const draw = () => client(own.url)('POST', '/captcha/slide/challenge', { scene: 'login', identity: 'ration' });
      expect((await draw()).status).toBe(200);
      expect((await draw()).status).toBe(200);
      const refused = await draw();
      expectError(refused, 'AC3_23');
      const seconds = retryAfter(refused);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
    } finally {
      await own.close();
    }
  });
});

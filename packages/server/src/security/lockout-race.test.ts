/**
 * The failed-login lock under parallel bursts: each guess takes a place before the password is
 * checked and the failures and the guesses under way together stay within LOGIN_LOCK_AFTER, so a
 * burst never gets more guesses checked than the limit, while right answers at once are never
 * refused — on the database counters (SQLite, PostgreSQL) and on Redis counters. The same holds for
 * changing the password by the old one.
 */
import { randomUUID } from 'node:crypto';
import { A, client, PASSWORD, PID, signUp } from '@edupass/test-kit/accounts';
import { type TestServer, useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { describe, expect, test } from 'vitest';
import type { BuildOptions } from '../app.ts';
import type { Config } from '../config/config.ts';
import { connectRedis } from '../store/redis.ts';
import { redisCounters } from '../store/redis-counters.ts';

const LOCK_AFTER = 10;
const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;

/**
 * How a burst's answers fell: 200 signed in / 204 changed, AC3_2 or AC3_9 wrong, and unchecked: E_5
 * locked, or E_10 (a guess that waited its turn past the wait's end under load: asked to try again).
 */
const tally = (answers: Answer[]) => {
  const codes = answers.map((a) => (a.status < 300 ? 'ok' : String((a.body as { error_code?: string }).error_code)));
  const count = (code: string) => codes.filter((c) => c === code).length;
  return { ok: count('ok'), wrong: count('AC3_2') + count('AC3_9'), locked: count('E_5') + count('E_10'), all: codes };
};

/** The seconds a lock's refusal says are left, the same in the body (`retry_after`) and `Retry-After`. */
const lockSeconds = (answer: Answer) => {
  const seconds = (answer.body as { retry_after?: unknown }).retry_after;
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  expect(seconds).toBeLessThanOrEqual(900);
  return Number(seconds);
};

/** `size` parallel sign-ins on one phone, the right password at index `rightAt` (if any). */
const loginBurst = (server: TestServer, phone: string, size: number, rightAt = -1) =>
  Promise.all(
    Array.from({ length: size }, (_, i) =>
      client(server.url)('POST', `${A}/login`, {
        identity: phone,
        password: i === rightAt ? PASSWORD : `Wrong${i}pass`,
        pid: PID,
      }),
    ),
  );

const suite = (name: string, overrides: Partial<Config>, options: BuildOptions = {}) =>
  describe(name, () => {
    const { server } = useTestServer({ loginLockAfter: LOCK_AFTER, loginSlowdownAfter: 5, ...overrides }, options);

    test('60 parallel guesses, the right password at #55: at most the limit are checked', async () => {
      const { phone } = await signUp(server);
      const result = tally(await loginBurst(server, phone, 60, 54));
      console.info(`[lockout] ${name}: 60-guess burst checked ${result.wrong + result.ok}, signed in ${result.ok}`);
      expect(result.wrong + result.ok).toBeLessThanOrEqual(LOCK_AFTER);
      expect(result.locked).toBe(60 - result.wrong - result.ok);
      expect(result.all.every((c) => ['ok', 'AC3_2', 'E_5', 'E_10'].includes(c))).toBe(true);
      // Unless the right one was among the guesses checked, the lock holds afterwards, even for the
      // right password, and says when it lifts.
      if (result.ok === 0) {
        const after = await client(server.url)('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID });
        expect(after.status).toBe(429);
        expect(lockSeconds(after)).toBeGreaterThan(0);
      }
    });

    test('three times the limit of sign-ins with the right password at once all sign in: a right answer consumes nothing', async () => {
      const { phone } = await signUp(server);
      const answers = await Promise.all(
        Array.from({ length: 3 * LOCK_AFTER }, () =>
          client(server.url)('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID }),
        ),
      );
      expect(tally(answers).all).toEqual(Array(3 * LOCK_AFTER).fill('ok'));
      // And the lock still counts a wrong guess after them, from zero.
      const wrong = await client(server.url)('POST', `${A}/login`, {
        identity: phone,
        password: 'Wrong1pass',
        pid: PID,
      });
      expect(wrong.status).toBe(403);
    });

    test('300 parallel wrong guesses check at most the limit', async () => {
      const { phone } = await signUp(server);
      const answers = await loginBurst(server, phone, 300);
      const result = tally(answers);
      console.info(`[lockout] ${name}: 300-guess burst checked ${result.wrong}`);
      expect(result.wrong).toBeLessThanOrEqual(LOCK_AFTER);
      expect(result.wrong).toBeGreaterThan(0);
      expect(result.locked).toBe(300 - result.wrong);
      // Every refusal by the lock, whether it came before or after the reservation, tells the seconds left.
      for (const answer of answers.filter((a) => a.status === 429)) expect(lockSeconds(answer)).toBeGreaterThan(0);
    });

    test('a success gives its reservation back and clears earlier failures', async () => {
      const { phone } = await signUp(server);
      const call = client(server.url);
      for (let i = 0; i < LOCK_AFTER - 1; i++) {
        expect((await call('POST', `${A}/login`, { identity: phone, password: 'Wrong1pass', pid: PID })).status).toBe(
          403,
        );
      }
      expect((await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID })).status).toBe(200);
      // Nine more mistakes fit again: the success did not count and reset the window.
      for (let i = 0; i < LOCK_AFTER - 1; i++) {
        expect((await call('POST', `${A}/login`, { identity: phone, password: 'Wrong1pass', pid: PID })).status).toBe(
          403,
        );
      }
      expect((await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID })).status).toBe(200);
    });

    test('60 parallel password changes by old password: at most the limit checked, none changes it', async () => {
      const account = await signUp(server);
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          client(server.url)(
            'PATCH',
            `${A}/password`,
            {
              old_password: i === 54 ? PASSWORD : `Wrong${i}pass`,
              password: 'Another7pass',
              confirm_password: 'Another7pass',
            },
            { token: account.token },
          ),
        ),
      );
      const result = tally(answers);
      console.info(`[lockout] ${name}: 60-guess change-password burst checked ${result.wrong + result.ok}`);
      expect(result.wrong + result.ok).toBeLessThanOrEqual(LOCK_AFTER);
      expect(result.ok).toBe(0);
      expect(result.locked).toBe(60 - result.wrong);
    });
  });

suite('database counters', {});
// Keys of its own: user ids repeat across test databases sharing the one Redis.
if (redisUrl !== undefined) {
  suite(
    'Redis counters',
    { redisUrl },
    { counters: redisCounters(connectRedis(redisUrl, undefined, 'test counters'), `edupass-test:${randomUUID()}:`) },
  );
}

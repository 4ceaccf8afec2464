/**
 * A one-time code under parallel guesses: each guess is counted and the code read in one statement
 * (store/account/codes.ts `countAttempt`), so a burst cannot share attempts, the code is withdrawn once
 * CODE_MAX_ATTEMPTS is reached whatever arrives at once, and a right code sent twice at once signs in
 * once. On PostgreSQL too, where statements really run side by side.
 */
import { A, client, codeFor, expectSignedIn, PID, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { describe, expect, it } from 'vitest';

const MAX_ATTEMPTS = 5;
const { server } = useTestServer({ codeMaxAttempts: MAX_ATTEMPTS });

/** A registered phone and the sign-in code just sent to it. */
const phoneWithCode = async () => {
  const { phone } = await signUp(server);
  return { phone, code: await codeFor(server, 'captcha/login/post-process', { phone_number: phone, pid: PID }) };
};

const signInWith = (phone: string, captcha: string) =>
  client(server.url)('POST', `${A}/phone/login/post-process`, { phone_number: phone, captcha, pid: PID });

/** Another six digits than `code`. */
const wrongFor = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

const outcomes = (answers: Answer[]) =>
  answers.map((a) => (a.status === 200 ? 'ok' : String((a.body as { error_code?: string }).error_code)));

describe('a one-time code under parallel guesses', () => {
  it('40 wrong guesses at once withdraw the code: the right one is refused after them', async () => {
    const { phone, code } = await phoneWithCode();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => signInWith(phone, wrongFor(code, i))));
    expect(new Set(outcomes(burst))).toEqual(new Set(['AC3_13']));
    expect(outcomes([await signInWith(phone, code)])).toEqual(['AC3_13']);
  });

  it('the right code among 40 guesses at once signs in at most once, and the code is gone after', async () => {
    const { phone, code } = await phoneWithCode();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signInWith(phone, i === 20 ? code : wrongFor(code, i))),
    );
    const results = outcomes(burst);
    expect(results.filter((r) => r === 'ok').length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r !== 'ok').every((r) => r === 'AC3_13')).toBe(true);
    // Spent or withdrawn either way.
    expect(outcomes([await signInWith(phone, code)])).toEqual(['AC3_13']);
  });

  it('the right code sent twice at once signs in once', async () => {
    const { phone, code } = await phoneWithCode();
    const [first, second] = await Promise.all([signInWith(phone, code), signInWith(phone, code)]);
    const results = outcomes([first, second] as Answer[]).sort();
    expect(results).toEqual(['AC3_13', 'ok']);
    expectSignedIn((first?.status === 200 ? first : second) as Answer, phone);
  });
});

/**
 * The e-mail reset and sign-in codes tell nobody which addresses have accounts: a known and an
 * unknown address meet the same captcha gate, the same send limits (with `retry_after`) and the same
 * answers at the send and at the check; only a known address receives a code. One code is spent once
 * by parallel checks, on SQLite and PostgreSQL alike.
 */
import { ACCOUNTS_BASE as A, type LoginResult } from '@edupass/protocol';
import { codeFor, expectError, newCodeFor, nextEmail, PID, signUpByEmail } from '@edupass/test-kit/accounts';
import { captchaWith, useTestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { describe, expect, it, vi } from 'vitest';
import { newUser } from '../services/sign-in/sign-up.ts';
import { storedTarget } from '../store/account/codes.ts';

const SENDS = {
  reset: { send: 'email/captcha/password/reset', check: 'email/captcha/password/check' },
  login: { send: 'email/captcha/login', check: 'email/login' },
} as const;

/** What a prober sees of an answer: status, body and the retry header (the body's log_uuid is each request's own). */
const seen = (answer: Answer) => {
  const { log_uuid: _ownId, ...body } = (answer.body ?? {}) as Record<string, unknown>;
  return { status: answer.status, body, retryAfter: answer.headers.get('retry-after') };
};

describe('known and unknown addresses answer alike', () => {
  const { server, call } = useTestServer({ codeResendSeconds: 60, codeMaxAttempts: 3 });

  for (const [purpose, paths] of Object.entries(SENDS)) {
    it(`${purpose}: the send is 204 for both, a second within the wait AC3_23 with the same retry_after`, async () => {
      const known = (await signUpByEmail(server)).email;
      const unknown = nextEmail();
      const signUpCode = await server.lastCode(known);
      const send = (email: string) => call('POST', `${A}/${paths.send}`, { email, pid: PID });
      const first = [await send(known), await send(unknown)];
      expect(seen(first[0] as Answer)).toEqual({ status: 204, body: {}, retryAfter: null });
      expect(seen(first[1] as Answer)).toEqual(seen(first[0] as Answer));
      const again = [await send(known), await send(unknown)];
      expectError(again[0] as Answer, 'AC3_23');
      expect(seen(again[1] as Answer)).toEqual(seen(again[0] as Answer));
      // Only the account's address received a code (delivered after the answer).
      expect(await newCodeFor(server, known, signUpCode)).toMatch(/^\d{6}$/);
      expect(await server.lastCode(unknown)).toBeUndefined();
    });

    it(`${purpose}: both do the same work before answering — a code stored — and only the known one's is delivered`, async () => {
      const known = (await signUpByEmail(server)).email;
      const unknown = nextEmail();
      const storedFor = (email: string) =>
        server.app.ctx.db
          .selectFrom('codes')
          .select('target')
          .where('target', '=', storedTarget(server.app.ctx.db, email))
          .where('scene', '=', `email_${purpose}` as 'email_reset')
          .executeTakeFirst();
      for (const email of [known, unknown]) {
        expect((await call('POST', `${A}/${paths.send}`, { email, pid: PID })).status).toBe(204);
        // At the answer, not later: the write is done before it, for an address with or without an account.
        expect(await storedFor(email), email).toBeDefined();
      }
      expect(await server.lastCode(unknown)).toBeUndefined();
    });

    it(`${purpose}: a check of an unknown address reads as a wrong code for a known one (AC3_13)`, async () => {
      const known = (await signUpByEmail(server)).email;
      const unknown = nextEmail();
      const knownCode = await codeFor(server, paths.send, { email: known, pid: PID });
      const wrong = knownCode === '000000' ? '111111' : '000000';
      expect((await call('POST', `${A}/${paths.send}`, { email: unknown, pid: PID })).status).toBe(204);
      const body = { captcha: wrong, pid: PID };
      const answers = [
        await call('POST', `${A}/${paths.check}`, { email: known, ...body }),
        await call('POST', `${A}/${paths.check}`, { email: unknown, ...body }),
      ];
      expectError(answers[0] as Answer, 'AC3_13');
      expect(seen(answers[1] as Answer)).toEqual(seen(answers[0] as Answer));
    });
  }
});

describe('the captcha gate comes first, for known and unknown addresses alike', () => {
  const { server, call } = useTestServer(
    captchaWith({ '*:email_reset': 'always', '*:email_login': 'always', '*:*': 'never' }),
  );

  it('without a passed captcha both sends are GCAP_1', async () => {
    const known = (await signUpByEmail(server)).email;
    const signUpCode = await server.lastCode(known);
    for (const paths of Object.values(SENDS)) {
      const answers = [
        await call('POST', `${A}/${paths.send}`, { email: known, pid: PID }),
        await call('POST', `${A}/${paths.send}`, { email: nextEmail(), pid: PID }),
      ];
      expectError(answers[0] as Answer, 'GCAP_1');
      expect(seen(answers[1] as Answer)).toEqual(seen(answers[0] as Answer));
    }
    // Nothing new reached the account's address: its newest code is still the sign-up's.
    expect(await server.lastCode(known)).toBe(signUpCode);
  });
});

describe('a delivery that fails does not show either', () => {
  const refused: string[] = [];
  const { server, call } = useTestServer(
    {},
    {
      // A mail server that turns every message away.
      delivery: {
        async send(message) {
          refused.push(message.to);
          throw new Error('550 mailbox unavailable');
        },
      },
    },
  );

  it('a known address the mail server refuses answers 204 like an unknown one; the code is withdrawn', async () => {
    const email = nextEmail();
    await server.app.ctx.db
      .insertInto('users')
      .values(newUser(server.app.ctx, { pid: PID, email }))
      .execute();
    const known = await call('POST', `${A}/${SENDS.login.send}`, { email, pid: PID });
    const unknown = await call('POST', `${A}/${SENDS.login.send}`, { email: nextEmail(), pid: PID });
    expect(seen(known)).toEqual({ status: 204, body: {}, retryAfter: null });
    expect(seen(unknown)).toEqual(seen(known));
    // Tried twice after the answer, then withdrawn: no code row is left to guess at.
    await vi.waitFor(
      async () => {
        expect(refused.filter((to) => to === email)).toHaveLength(2);
        const row = await server.app.ctx.db
          .selectFrom('codes')
          .selectAll()
          .where('target', '=', storedTarget(server.app.ctx.db, email))
          .executeTakeFirst();
        expect(row).toBeUndefined();
      },
      { timeout: 30_000, interval: 20 },
    );
  });
});

describe('the per-IP hourly limit counts unknown addresses like known ones', () => {
  const { call } = useTestServer({ codeIpHourlyLimit: 5 });

  it('5 sends to unknown addresses answer 204, the 6th AC3_23 with retry_after', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await call('POST', `${A}/${SENDS.reset.send}`, { email: nextEmail(), pid: PID }));
    }
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([204, 204, 204, 204, 204]);
    expectError(answers[5] as Answer, 'AC3_23');
    expect((answers[5] as Answer).body).toMatchObject({ retry_after: expect.any(Number) });
  });
});

describe('one code, many parallel checks', () => {
  const { server, call } = useTestServer();

  it('10 parallel sign-ins with one e-mail code: exactly one signs in, the others AC3_13', async () => {
    const { email, userId } = await signUpByEmail(server);
    const captcha = await codeFor(server, SENDS.login.send, { email, pid: PID });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call<LoginResult>('POST', `${A}/email/login`, { email, captcha, pid: PID })),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect((won[0] as Answer<LoginResult>).body.user_info.id).toBe(userId);
    for (const lost of answers.filter((a) => a.status !== 200)) expectError(lost, 'AC3_13');
  });

  it('10 parallel reset checks with one code: exactly one ticket, the others AC3_13', async () => {
    const { email } = await signUpByEmail(server);
    const captcha = await codeFor(server, SENDS.reset.send, { email, pid: PID });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `${A}/${SENDS.reset.check}`, { email, captcha })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200)) expectError(lost, 'AC3_13');
  });
});

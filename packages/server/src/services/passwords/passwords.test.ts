import { availableParallelism } from 'node:os';
import { ClientCode } from '@edupass/protocol';
import {
  A,
  authCookieOf,
  client,
  codeFor,
  expectError,
  expectSignedIn,
  nextPhone,
  PASSWORD,
  PID,
  signIn,
  signUp,
  signUpByEmail,
  signUpSilently,
  T,
} from '@edupass/test-kit/accounts';
import { startTestServer, TEST_ENV, TEST_PASSWORD_HASHING, useTestServer } from '@edupass/test-kit/harness';
import { floodPasswordChecks } from '@edupass/test-kit/password-flood';
import { loadConfig } from '@edupass/test-kit/server';
import { describe, expect, it } from 'vitest';
import { findUserById } from '../../store/account/users.ts';
import { saveUser } from '../account/users.ts';
import { loginFailureCount } from '../security/rate-limits.ts';
import { ARGON2_OPTIONS, hashPassword, passwordHashes, verifyPassword } from './argon2.ts';
import { HASHES_BUSY_MESSAGE } from './hash-turns.ts';

const NEW_PASSWORD = 'Changed456';

const { server, call } = useTestServer();

const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });

/** Every session of the account is over: access tokens E_0, refresh tokens 10000001. */
const expectSessionsEnded = async (sessions: { token: string; refresh: string }[]) => {
  for (const session of sessions) {
    expectError(await call('GET', `${A}/profile`, undefined, { token: session.token }), 'E_0');
    expectError(await call('PUT', `${T}/refresh`, { refresh_token: session.refresh }), '10000001');
  }
};

describe('first password (PATCH password/setting)', () => {
  it('sets the password of an account that has none (204); it then signs in', async () => {
    const account = await signUpSilently(server);
    const answer = await call(
      'PATCH',
      `${A}/password/setting`,
      { password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      { token: account.token },
    );
    expect(answer.status).toBe(204);
    expectSignedIn(await login(account.phone, NEW_PASSWORD));
    // The session that set it goes on.
    expect((await call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
  });

  it('a second time is AC3_11', async () => {
    const account = await signUp(server);
    const answer = await call(
      'PATCH',
      `${A}/password/setting`,
      { password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      { token: account.token },
    );
    expectError(answer, 'AC3_11', ClientCode.INIT_PASSWORD_ONCE);
  });

  it('passwords that differ are AC3_10; an invalid one is E_1 with client code 2', async () => {
    const account = await signUpSilently(server);
    expectError(
      await call(
        'PATCH',
        `${A}/password/setting`,
        { password: NEW_PASSWORD, confirm_password: 'Other7890' },
        { token: account.token },
      ),
      'AC3_10',
      ClientCode.PASSWORDS_DIFFER,
    );
    expectError(
      await call(
        'PATCH',
        `${A}/password/setting`,
        { password: 'a b', confirm_password: 'a b' },
        { token: account.token },
      ),
      'E_1',
      ClientCode.INVALID_PASSWORD,
    );
  });
});

describe('change by old password (PATCH password)', () => {
  const change = (token: string, body: Record<string, unknown>) =>
    call(
      'PATCH',
      `${A}/password`,
      { old_password: PASSWORD, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD, ...body },
      { token },
    );

  it('answers 204, clears the cookie and ends every session of the user', async () => {
    const account = await signUp(server);
    const other = await signIn(server, account.phone);
    const answer = await change(account.token, {});
    expect(answer.status).toBe(204);
    expect(authCookieOf(answer)?.value).toBe('');
    await expectSessionsEnded([account, { token: other.access.token, refresh: other.refresh.token }]);
    expectError(await login(account.phone, PASSWORD), 'AC3_2');
    expectSignedIn(await login(account.phone, NEW_PASSWORD));
  });

  it('a wrong old password is AC3_9 and the session goes on', async () => {
    const account = await signUp(server);
    expectError(await change(account.token, { old_password: 'Wrong1234' }), 'AC3_9', ClientCode.WRONG_OLD_PASSWORD);
    expect((await call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
  });

  it('passwords that differ are AC3_10', async () => {
    const account = await signUp(server);
    expectError(await change(account.token, { confirm_password: 'Other7890' }), 'AC3_10');
  });

  it('an account with no password yet is AC3_16', async () => {
    const account = await signUpSilently(server);
    expectError(await change(account.token, {}), 'AC3_16');
  });
});

describe('change by phone code (captcha/password/update → PATCH password/phone)', () => {
  const sendCode = (token: string, phone: string, pid = PID) =>
    call('POST', `${A}/captcha/password/update`, { phone_number: phone, pid }, { token });
  const codeTo = (token: string, phone: string) =>
    codeFor(server, 'captcha/password/update', { phone_number: phone, pid: PID }, { token });
  const change = (token: string, phone: string, captcha: string) =>
    call('PATCH', `${A}/password/phone`, { phone_number: phone, captcha, password: NEW_PASSWORD }, { token });

  it('sends the code to the bound phone (204) and changes the password, ending every session', async () => {
    const account = await signUp(server);
    const other = await signIn(server, account.phone);
    const captcha = await codeTo(account.token, account.phone);
    const answer = await change(account.token, account.phone, captcha);
    expect(answer.status).toBe(204);
    expect(authCookieOf(answer)?.value).toBe('');
    await expectSessionsEnded([account, { token: other.access.token, refresh: other.refresh.token }]);
    expectSignedIn(await login(account.phone, NEW_PASSWORD));
  });

  it('a phone other than the bound one is AC3_8 at both steps', async () => {
    const account = await signUp(server);
    const elsewhere = nextPhone();
    expectError(await sendCode(account.token, elsewhere), 'AC3_8', ClientCode.CODE_MUST_GO_TO_BOUND_PHONE);
    expectError(await change(account.token, elsewhere, '123456'), 'AC3_8');
  });

  it('an account without a phone is AC3_7 at both steps', async () => {
    const account = await signUpByEmail(server);
    const phone = nextPhone();
    expectError(await sendCode(account.token, phone), 'AC3_7', ClientCode.NEED_BIND_PHONE);
    expectError(await change(account.token, phone, '123456'), 'AC3_7');
  });

  it('a wrong code is AC3_13', async () => {
    const account = await signUp(server);
    const captcha = await codeTo(account.token, account.phone);
    expectError(await change(account.token, account.phone, captcha === '000000' ? '111111' : '000000'), 'AC3_13');
  });

  it('an unknown pid is AC3_24', async () => {
    const account = await signUp(server);
    expectError(await sendCode(account.token, account.phone, 'x'), 'AC3_24');
  });
});

describe('reset (captcha/password/reset → captcha/password/check → PATCH password/reset)', () => {
  const ticketFor = async (phone: string) => {
    const captcha = await codeFor(server, 'captcha/password/reset', { phone_number: phone, pid: PID });
    const checked = await call<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
      phone_number: phone,
      captcha,
    });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ ticket: expect.any(String) });
    return checked.body.ticket;
  };
  const reset = (ticket: string, password = NEW_PASSWORD, confirm = password) =>
    call('PATCH', `${A}/password/reset`, { ticket, password, confirm_password: confirm });

  it('resets the password (204), ending every session; the ticket is single use', async () => {
    const account = await signUp(server);
    const ticket = await ticketFor(account.phone);
    expect((await reset(ticket)).status).toBe(204);
    await expectSessionsEnded([account]);
    expectError(await login(account.phone, PASSWORD), 'AC3_2');
    expectSignedIn(await login(account.phone, NEW_PASSWORD));
    expectError(await reset(ticket, 'Again12345'), 'AC3_27', ClientCode.WRONG_TICKET);
  });

  it('an unregistered phone is AC3_1 at the send; at the check it has no code (AC3_13, telling nothing more)', async () => {
    const phone = nextPhone();
    expectError(await call('POST', `${A}/captcha/password/reset`, { phone_number: phone, pid: PID }), 'AC3_1');
    expectError(
      await call('POST', `${A}/captcha/password/check`, { phone_number: phone, captcha: '123456' }),
      'AC3_13',
    );
  });

  it('a wrong code is AC3_13', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/password/reset', { phone_number: account.phone, pid: PID });
    expectError(
      await call('POST', `${A}/captcha/password/check`, {
        phone_number: account.phone,
        captcha: captcha === '000000' ? '111111' : '000000',
      }),
      'AC3_13',
    );
  });

  it('a junk ticket is AC3_27; passwords that differ are AC3_10; an invalid one is E_1', async () => {
    expectError(await reset('junk'), 'AC3_27');
    const account = await signUp(server);
    const ticket = await ticketFor(account.phone);
    expectError(await reset(ticket, NEW_PASSWORD, 'Other7890'), 'AC3_10');
    expectError(await reset(ticket, 'tiny'), 'E_1', ClientCode.INVALID_PASSWORD);
    // Neither failure spent the ticket.
    expect((await reset(ticket)).status).toBe(204);
  });

  it('a reset lifts a login lock', async () => {
    const locking = await startTestServer({ loginSlowdownAfter: 1, loginLockAfter: 2 });
    try {
      const lockCall = client(locking.url);
      const account = await signUp(locking);
      for (let i = 0; i < 2; i++) {
        await lockCall('POST', `${A}/login`, { identity: account.phone, password: 'Wrong1234', pid: PID });
      }
      expectError(
        await lockCall('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }),
        'E_5',
      );
      const captcha = await codeFor(locking, 'captcha/password/reset', { phone_number: account.phone, pid: PID });
      const checked = await lockCall<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
        phone_number: account.phone,
        captcha,
      });
      const answer = await lockCall('PATCH', `${A}/password/reset`, {
        ticket: checked.body.ticket,
        password: NEW_PASSWORD,
        confirm_password: NEW_PASSWORD,
      });
      expect(answer.status).toBe(204);
      expectSignedIn(
        await lockCall('POST', `${A}/login`, { identity: account.phone, password: NEW_PASSWORD, pid: PID }),
      );
    } finally {
      await locking.close();
    }
  });
});

describe('the cost of a password hash', () => {
  it('a deployment hashes at ARGON2_OPTIONS (no variable lowers it); test servers at the token cost', async () => {
    expect(loadConfig({ ...TEST_ENV }).passwordHashing).toEqual(ARGON2_OPTIONS);
    const account = await signUp(server);
    const stored = await findUserById(server.app.ctx.db, account.userId);
    expect(stored?.password_hash).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
  });

  it('a server at the deployed cost stores m=19456,t=2 and still signs in by a token-cost hash', async () => {
    const deployed = await startTestServer({ passwordHashing: ARGON2_OPTIONS });
    try {
      const account = await signUp(deployed);
      const stored = await findUserById(deployed.app.ctx.db, account.userId);
      expect(stored?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const cheap = await hashPassword(PASSWORD, TEST_PASSWORD_HASHING);
      await saveUser(deployed.app.ctx, account.userId, { password_hash: cheap });
      await signIn(deployed, account.phone);
    } finally {
      await deployed.close();
    }
  });

  it('hashes run one per core the process may use; the rest wait their turn, and every check is answered', async () => {
    const cores = availableParallelism();
    const stored = await hashPassword(PASSWORD, TEST_PASSWORD_HASHING);
    const checks = Array.from({ length: cores * 3 }, (_, i) => verifyPassword(stored, i === 0 ? PASSWORD : 'wrong'));
    expect(passwordHashes()).toEqual({ running: cores, waiting: cores * 2 });
    expect(await Promise.all(checks)).toEqual([true, ...Array(cores * 3 - 1).fill(false)]);
    expect(passwordHashes()).toEqual({ running: 0, waiting: 0 });
  });

  it('past the bounded queue a sign-in is answered 503 with Retry-After at once, counts against no lock, and other calls keep their pace', async () => {
    const account = await signUp(server);
    const flood = floodPasswordChecks();
    const busy = await fetch(`${server.url}${A}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identity: account.phone, password: PASSWORD, pid: PID }),
    });
    const body = (await busy.json()) as { error_code: string; retry_after: number };
    expect(busy.status).toBe(503);
    expect(body).toMatchObject({ error_code: 'E_10', error_message: HASHES_BUSY_MESSAGE });
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBe(Number(busy.headers.get('retry-after')));
    // A call without a hash is answered meanwhile, while the flood is still waiting.
    expect((await call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
    expect(passwordHashes().waiting).toBeGreaterThan(0);
    await flood.drained;
    // The refused sign-in was never checked: nothing counted against the account's lock.
    expect(await loginFailureCount(server.app.ctx, `user:${account.userId}`)).toBe(0);
    expectSignedIn(await login(account.phone, PASSWORD));
  }, 120_000);
});

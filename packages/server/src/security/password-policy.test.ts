/**
 * Common passwords are refused (E_8) wherever a password is chosen — sign-up by phone and e-mail,
 * the first password, a change by old password or by phone code, a reset — before anything the
 * request carries is spent; the wire's 6–20 rule is unchanged. A password set before the rule is
 * reported weak from its next sign-in.
 */
import { ClientCode } from '@edupass/protocol';
import {
  A,
  codeFor,
  expectError,
  expectSignedIn,
  nextEmail,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpSilently,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { saveUser } from '../services/account/users.ts';
import { hashPassword } from '../services/passwords/argon2.ts';
import { findUserById } from '../store/account/users.ts';

const { server, call } = useTestServer();

// In the list as "password1" and "qwerty123": the comparison ignores case.
const COMMON = 'Password1';
const ALSO_COMMON = 'QWERTY123';
const GOOD = 'Granite4Lantern';

const expectTooCommon = (answer: Parameters<typeof expectError>[0]) =>
  expectError(answer, 'E_8', ClientCode.PASSWORD_TOO_COMMON);

describe('a common password is refused with E_8', () => {
  it('at sign-up by phone, and the code still works for a better password', async () => {
    const phone = nextPhone();
    const captcha = await codeFor(server, 'captcha/register/phone/with-agreement', { phone_number: phone, pid: PID });
    const body = (password: string) => ({ phone_number: phone, captcha, password, agreement_ids: [-1], pid: PID });
    const refused = await call('POST', `${A}/register/phone/with-agreement`, body(COMMON));
    expectTooCommon(refused);
    expect((refused.body as { error_message: string }).error_message).toMatch(/too common/i);
    expectSignedIn(await call('POST', `${A}/register/phone/with-agreement`, body(GOOD)), phone);
  });

  it('at sign-up by e-mail, and the ticket is not spent', async () => {
    const email = nextEmail();
    const captcha = await codeFor(server, 'email/captcha/send', { email, pid: PID });
    const { body } = await call<{ ticket: string }>('POST', `${A}/email/captcha/check`, { email, captcha });
    const register = (password: string) =>
      call('POST', `${A}/email/register`, { captchaTicket: body.ticket, password, rePassword: password, pid: PID });
    expectTooCommon(await register(ALSO_COMMON));
    expectSignedIn(await register(GOOD));
  });

  it('for the first password', async () => {
    const account = await signUpSilently(server);
    const init = (password: string) =>
      call('PATCH', `${A}/password/setting`, { password, confirm_password: password }, { token: account.token });
    expectTooCommon(await init(COMMON));
    expect((await init(GOOD)).status).toBe(204);
  });

  it('for a change by the old password (which is not counted as a guess)', async () => {
    const account = await signUp(server);
    const change = (password: string) =>
      call(
        'PATCH',
        `${A}/password`,
        { old_password: PASSWORD, password, confirm_password: password },
        { token: account.token },
      );
    expectTooCommon(await change(COMMON));
    expect((await change(GOOD)).status).toBe(204);
  });

  it('for a change by phone code, and the code still works', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(
      server,
      'captcha/password/update',
      { phone_number: account.phone, pid: PID },
      { token: account.token },
    );
    const change = (password: string) =>
      call(
        'PATCH',
        `${A}/password/phone`,
        { phone_number: account.phone, captcha, password },
        { token: account.token },
      );
    expectTooCommon(await change(COMMON));
    expect((await change(GOOD)).status).toBe(204);
  });

  it('for a reset, and the ticket still works', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/password/reset', { phone_number: account.phone, pid: PID });
    const checked = await call<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
      phone_number: account.phone,
      captcha,
    });
    const reset = (password: string) =>
      call('PATCH', `${A}/password/reset`, { ticket: checked.body.ticket, password, confirm_password: password });
    expectTooCommon(await reset(COMMON));
    expect((await reset(GOOD)).status).toBe(204);
  });

  it('the wire rule still comes first: a 5-character password is E_1 INVALID_PASSWORD', async () => {
    const account = await signUpSilently(server);
    const answer = await call(
      'PATCH',
      `${A}/password/setting`,
      { password: 'abcde', confirm_password: 'abcde' },
      { token: account.token },
    );
    expectError(answer, 'E_1', ClientCode.INVALID_PASSWORD);
  });
});

describe('is_weak_password', () => {
  it('a common password set before the list was checked is reported weak from its next sign-in', async () => {
    const account = await signUp(server);
    // As an account created before this rule: a common password, not flagged.
    await saveUser(server.app.ctx, account.userId, { password_hash: await hashPassword(COMMON), weak_password: 0 });
    const body = expectSignedIn(
      await call('POST', `${A}/login`, { identity: account.phone, password: COMMON, pid: PID }),
    );
    expect(body.auth.is_weak_password).toBe(true);
    expect((await findUserById(server.app.ctx.db, account.userId))?.weak_password).toBe(1);
  });

  it('a strong password stays reported strong', async () => {
    const account = await signUp(server);
    const body = expectSignedIn(
      await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }),
    );
    expect(body.auth.is_weak_password).toBe(false);
  });
});

/**
 * Step-up on the takeover paths: with a session older than STEP_UP_SECONDS (a stolen token), a new
 * phone, a first password, a password by phone code and third-party link changes answer E_7 until
 * the session proves itself again (password, a code to the account's own phone or e-mail, or a round
 * trip to the account's own WeChat or QQ). The
 * old phone or e-mail is told of the change, and the user can end the other sessions.
 */
import { ClientCode, type StepUpStatus } from '@edupass/protocol';
import {
  A,
  type Account,
  codeFor,
  expectError,
  nextPhone,
  PASSWORD,
  PID,
  signIn,
  signUp,
  signUpByEmail,
  signUpSilently,
} from '@edupass/test-kit/accounts';
import type { TestServer } from '@edupass/test-kit/harness';
import { providerReturn } from '@edupass/test-kit/oauth-flow';
import { useStepUpServer } from '@edupass/test-kit/step-up-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertOauthLink } from '../store/account/oauths.ts';

const WINDOW = 300;
const { server, call, outbox, later } = useStepUpServer(WINDOW);
// The development WeChat and QQ send the browser back to PUBLIC_URL: this server's address.
beforeAll(() => {
  server.config.publicUrl = server.url;
});

const stepUpByCode = async (s: TestServer, token: string, to: string) => {
  const captcha = await codeFor(s, 'step-up/code/send', { pid: PID, phone_number: to }, { token });
  return call('POST', `${A}/step-up/code`, { captcha }, { token });
};

const rebind = async (account: { phone: string; token: string }, phone = nextPhone()) => {
  const sent = await call(
    'POST',
    `${A}/captcha/phone/change`,
    { phone_number: phone, old_phone_number: account.phone, pid: PID },
    { token: account.token },
  );
  if (sent.status !== 204) return sent;
  const captcha = await server.lastCode(phone);
  return call('PATCH', `${A}/phone/change`, { phone_number: phone, captcha }, { token: account.token });
};

describe('rebinding the phone', () => {
  it('right after sign-in the sign-in is the proof; the old phone is told', async () => {
    const account = await signUp(server);
    const newPhone = nextPhone();
    expect((await rebind(account, newPhone)).status).toBe(204);
    const notices = (await outbox(account.phone)).filter((row) => row.code === '');
    expect(notices[0]?.text).toMatch(/phone number of your account was changed/);
  });

  it('with an old session (a stolen token) it is E_7 until a code to the old phone proves it', async () => {
    const account = await signUp(server);
    later();
    const refused = await rebind(account);
    expectError(refused, 'E_7', ClientCode.STEP_UP_REQUIRED);
    expectError(
      await call(
        'PATCH',
        `${A}/phone/change`,
        { phone_number: nextPhone(), captcha: '123456' },
        { token: account.token },
      ),
      'E_7',
    );
    const status = await call<StepUpStatus>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(status.body).toEqual({ fresh: false, expires_in: 0, methods: ['password', 'sms'] });

    // A wrong code does not count.
    expectError(await call('POST', `${A}/step-up/code`, { captcha: '000000' }, { token: account.token }), 'AC3_13');
    expect((await stepUpByCode(server, account.token, account.phone)).status).toBe(204);
    const fresh = await call<StepUpStatus>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(fresh.body.fresh).toBe(true);
    expect(fresh.body.expires_in).toBeGreaterThan(WINDOW - 30);
    const newPhone = nextPhone();
    expect((await rebind(account, newPhone)).status).toBe(204);
    // The proof lapses with the window.
    later();
    expectError(await rebind({ ...account, phone: newPhone }), 'E_7');
  });

  it('the step-up code goes only to the account’s own phone, and only for the signed-in', async () => {
    const account = await signUp(server);
    expectError(await call('POST', `${A}/step-up/code/send`, { pid: PID }), 'E_0');
    const sent = await call('POST', `${A}/step-up/code/send`, { pid: PID }, { token: account.token });
    expect(sent.status).toBe(204);
    expect(await server.lastCode(account.phone)).toMatch(/^\d{6}$/);
  });
});

describe('proof by password', () => {
  it('a wrong password is refused, the right one opens the window', async () => {
    const account = await signUp(server);
    later();
    expectError(
      await call('POST', `${A}/step-up/password`, { password: 'Wrong9pass' }, { token: account.token }),
      'AC3_9',
    );
    expectError(await rebind(account), 'E_7');
    expect((await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: account.token })).status).toBe(
      204,
    );
    expect((await rebind(account)).status).toBe(204);
  });

  it('an account without a password is told to use a code', async () => {
    const account = await signUpSilently(server);
    later();
    expectError(
      await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: account.token }),
      'AC3_16',
    );
  });
});

describe('the other gated changes', () => {
  it('changing the password by phone code', async () => {
    const account = await signUp(server);
    later();
    const send = () =>
      call('POST', `${A}/captcha/password/update`, { phone_number: account.phone, pid: PID }, { token: account.token });
    expectError(await send(), 'E_7');
    expectError(
      await call(
        'PATCH',
        `${A}/password/phone`,
        { phone_number: account.phone, captcha: '123456', password: 'Granite4Lantern' },
        { token: account.token },
      ),
      'E_7',
    );
    expect((await stepUpByCode(server, account.token, account.phone)).status).toBe(204);
    expect((await send()).status).toBe(204);
  });

  it('setting a first password', async () => {
    const account = await signUpSilently(server);
    later();
    const init = () =>
      call(
        'PATCH',
        `${A}/password/setting`,
        { password: 'Granite4Lantern', confirm_password: 'Granite4Lantern' },
        { token: account.token },
      );
    expectError(await init(), 'E_7');
    expect((await stepUpByCode(server, account.token, account.phone)).status).toBe(204);
    expect((await init()).status).toBe(204);
    expect((await outbox(account.phone)).some((row) => /password of your account was changed/.test(row.text))).toBe(
      true,
    );
  });

  it('binding a phone to an e-mail account: the proof is a code to the e-mail', async () => {
    const account = await signUpByEmail(server);
    later();
    const phone = nextPhone();
    const send = () =>
      call('POST', `${A}/captcha/phone/bind`, { phone_number: phone, pid: PID }, { token: account.token });
    expectError(await send(), 'E_7');
    const status = await call<StepUpStatus>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(status.body.methods).toEqual(['password', 'email']);
    expect((await stepUpByCode(server, account.token, account.email)).status).toBe(204);
    expect((await send()).status).toBe(204);
    const captcha = await server.lastCode(phone);
    expect(
      (await call('PATCH', `${A}/phone/bind`, { phone_number: phone, captcha }, { token: account.token })).status,
    ).toBe(204);
    expect((await outbox(account.email)).some((row) => /phone number was bound/.test(row.text))).toBe(true);
  });

  it('unbinding a third-party sign-in', async () => {
    const account = await signUp(server);
    await insertOauthLink(server.app.ctx.db, {
      user_id: account.userId,
      provider: 'wechat',
      openid: `openid-${account.userId}`,
      unionid: null,
      nickname: 'wx',
      avatar_url: '',
      created_at: Date.now(),
    });
    later();
    const unbind = () => call('PATCH', `${A}/oauth/wechat/unbind`, undefined, { token: account.token });
    expectError(await unbind(), 'E_7');
    expect((await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: account.token })).status).toBe(
      204,
    );
    expect((await unbind()).status).toBe(204);
    expect((await outbox(account.phone)).some((row) => /third-party sign-in was unlinked/.test(row.text))).toBe(true);
  });

  it('a reset tells the phone', async () => {
    const account = await signUp(server);
    const captcha = await codeFor(server, 'captcha/password/reset', { phone_number: account.phone, pid: PID });
    const checked = await call<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
      phone_number: account.phone,
      captcha,
    });
    const password = 'Granite4Lantern';
    expect(
      (
        await call('PATCH', `${A}/password/reset`, {
          ticket: checked.body.ticket,
          password,
          confirm_password: password,
        })
      ).status,
    ).toBe(204);
    expect((await outbox(account.phone)).some((row) => /password of your account was reset/.test(row.text))).toBe(true);
  });
});

describe('ending the other sessions', () => {
  it('ends every session but the caller’s', async () => {
    const account: Account = await signUp(server);
    const other = await signIn(server, account.phone);
    expect((await call('POST', `${A}/sessions/end-others`, undefined, { token: account.token })).status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: other.access.token }), 'E_0');
    expect((await call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
  });
});

describe('step-up by a round trip to the linked QQ', () => {
  /** The QQ return for `identity` posted to the step-up, with the browser's state cookie. */
  const stepUpByQQ = async (token: string, identity: string) => {
    const back = await providerReturn(server, 'qq', identity);
    return call(
      'POST',
      `${A}/oauth/step-up`,
      { provider: 'qq', code: back.code, state: back.state },
      { token, headers: { cookie: back.cookie } },
    );
  };

  it('is offered to an account with QQ, refuses another QQ identity and a missing state, and proves with its own', async () => {
    const account = await signUp(server);
    const identity = `qq-${account.phone}`;
    const bound = await providerReturn(server, 'qq', identity);
    const bind = await call(
      'POST',
      `${A}/oauth/qq/bind`,
      { code: bound.code, state: bound.state },
      { token: account.token, headers: { cookie: bound.cookie } },
    );
    expect(bind.status).toBe(204);
    later();
    const status = await call<StepUpStatus>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(status.body).toMatchObject({ fresh: false, methods: ['password', 'sms', 'qq'] });

    expectError(await stepUpByQQ(account.token, `other-${account.phone}`), 'AC3_16');
    const back = await providerReturn(server, 'qq', identity);
    const noCookie = await call(
      'POST',
      `${A}/oauth/step-up`,
      { provider: 'qq', code: back.code, state: back.state },
      { token: account.token },
    );
    expectError(noCookie, 'AC3_16');
    expect((await stepUpByQQ(account.token, identity)).status).toBe(204);
    const fresh = await call<StepUpStatus>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(fresh.body.fresh).toBe(true);
  });
});

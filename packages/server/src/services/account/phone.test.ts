import { ClientCode, type Privacy } from '@edupass/protocol';
import {
  A,
  codeFor,
  expectError,
  expectSignedIn,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpByEmail,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const { server, call } = useTestServer();

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
const privacyOf = async (token: string) => (await call<Privacy>('GET', `${A}/privacy`, undefined, { token })).body;
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
/** The second step of binding (or changing to) a phone: the number and the code sent to it. */
const confirmPhone = (step: 'bind' | 'change', token: string, phone: string, captcha: string) =>
  call('PATCH', `${A}/phone/${step}`, { phone_number: phone, captcha }, { token });
const sendBind = (token: string, phone: string, pid = PID) =>
  call('POST', `${A}/captcha/phone/bind`, { phone_number: phone, pid }, { token });
const bindCode = (token: string, phone: string) =>
  codeFor(server, 'captcha/phone/bind', { phone_number: phone, pid: PID }, { token });

describe('can this phone be bound (GET phone/check)', () => {
  const check = (token: string, phone: string) =>
    call('GET', `${A}/phone/check?phone_number=${encodeURIComponent(phone)}`, undefined, { token });

  it('answers 204 for a free number and an account without a phone', async () => {
    const account = await signUpByEmail(server);
    const answer = await check(account.token, nextPhone());
    expect(answer.status).toBe(204);
  });

  it('an account that has a phone is AC3_14', async () => {
    const account = await signUp(server);
    expectError(await check(account.token, nextPhone()), 'AC3_14', ClientCode.PHONE_BOUND);
  });

  it('a number another account has is AC3_26', async () => {
    const owner = await signUp(server);
    const account = await signUpByEmail(server);
    expectError(await check(account.token, owner.phone), 'AC3_26', ClientCode.PHONE_BOUND_BY_OTHER_ACCOUNT);
  });

  it('a bad or missing number is E_1 with client code 0', async () => {
    const account = await signUpByEmail(server);
    expectError(await check(account.token, '123'), 'E_1', ClientCode.INVALID_PHONE);
    expectError(
      await call('GET', `${A}/phone/check`, undefined, { token: account.token }),
      'E_1',
      ClientCode.INVALID_PHONE,
    );
  });
});

describe('bind a phone (captcha/phone/bind → PATCH phone/bind)', () => {
  it('sends a code (204) and binds the number (204); privacy shows it masked and it signs in', async () => {
    const account = await signUpByEmail(server);
    const phone = nextPhone();
    const captcha = await bindCode(account.token, phone);
    const answer = await confirmPhone('bind', account.token, phone, captcha);
    expect(answer.status).toBe(204);
    expect((await privacyOf(account.token)).phone_number).toBe(masked(phone));
    expectSignedIn(await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID }), phone);
  });

  it('an account that has a phone is AC3_14 at both steps', async () => {
    const account = await signUp(server);
    const phone = nextPhone();
    expectError(await sendBind(account.token, phone), 'AC3_14');
    expectError(await confirmPhone('bind', account.token, phone, '123456'), 'AC3_14');
  });

  it('a number another account has is AC3_26 at both steps', async () => {
    const owner = await signUp(server);
    const account = await signUpByEmail(server);
    expectError(await sendBind(account.token, owner.phone), 'AC3_26');
    expectError(await confirmPhone('bind', account.token, owner.phone, '123456'), 'AC3_26');
  });

  it('a wrong code is AC3_13 and binds nothing', async () => {
    const account = await signUpByEmail(server);
    const phone = nextPhone();
    const captcha = await bindCode(account.token, phone);
    expectError(await confirmPhone('bind', account.token, phone, wrongCode(captcha)), 'AC3_13');
    expect((await privacyOf(account.token)).phone_number).toBe('');
  });

  it('an unknown pid is AC3_24', async () => {
    const account = await signUpByEmail(server);
    expectError(await sendBind(account.token, nextPhone(), 'x'), 'AC3_24');
  });
});

describe('change the bound phone (captcha/phone/change → PATCH phone/change)', () => {
  const sendRebind = (token: string, phone: string, old: string) =>
    call('POST', `${A}/captcha/phone/change`, { phone_number: phone, old_phone_number: old, pid: PID }, { token });

  it('sends a code to the new number (204) and rebinds (204); the new number signs in, the old one is free', async () => {
    const account = await signUp(server);
    const phone = nextPhone();
    const sent = await sendRebind(account.token, phone, account.phone);
    expect(sent.status).toBe(204);
    const captcha = (await server.lastCode(phone)) ?? '';
    const answer = await confirmPhone('change', account.token, phone, captcha);
    expect(answer.status).toBe(204);
    expect((await privacyOf(account.token)).phone_number).toBe(masked(phone));
    expectSignedIn(await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID }));
    expectError(await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }), 'AC3_2');
  });

  it('an account without a phone is AC3_7 at both steps', async () => {
    const account = await signUpByEmail(server);
    expectError(await sendRebind(account.token, nextPhone(), nextPhone()), 'AC3_7', ClientCode.NEED_BIND_PHONE);
    expectError(await confirmPhone('change', account.token, nextPhone(), '123456'), 'AC3_7');
  });

  it('a wrong old number is AC3_15', async () => {
    const account = await signUp(server);
    expectError(await sendRebind(account.token, nextPhone(), nextPhone()), 'AC3_15', ClientCode.OLD_PHONE_WRONG);
  });

  it('the same number is AC3_17 at both steps', async () => {
    const account = await signUp(server);
    expectError(
      await sendRebind(account.token, account.phone, account.phone),
      'AC3_17',
      ClientCode.CANNOT_REBIND_SAME_PHONE,
    );
    expectError(await confirmPhone('change', account.token, account.phone, '123456'), 'AC3_17');
  });

  it('a number another account has is AC3_26 at both steps', async () => {
    const owner = await signUp(server);
    const account = await signUp(server);
    expectError(await sendRebind(account.token, owner.phone, account.phone), 'AC3_26');
    expectError(await confirmPhone('change', account.token, owner.phone, '123456'), 'AC3_26');
  });

  it('a wrong code is AC3_13', async () => {
    const account = await signUp(server);
    const phone = nextPhone();
    expect((await sendRebind(account.token, phone, account.phone)).status).toBe(204);
    const captcha = (await server.lastCode(phone)) ?? '';
    expectError(await confirmPhone('change', account.token, phone, wrongCode(captcha)), 'AC3_13');
  });

  it('a bad old_phone_number is E_1 with client code 0', async () => {
    const account = await signUp(server);
    expectError(await sendRebind(account.token, nextPhone(), 'x'), 'E_1', ClientCode.INVALID_PHONE);
  });
});

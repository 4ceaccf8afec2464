import { ClientCode, type GradeStage, type Privacy, type UserInfo } from '@edupass/protocol';
import { A, type Account, expectError, signUp, signUpByEmail } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const { server, call } = useTestServer();

const profileOf = async (account: Account) => {
  const answer = await call<UserInfo>('GET', `${A}/profile`, undefined, { token: account.token });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('profile (GET profile)', () => {
  it('answers the user_info fields: integers (0) for what a new account never set, and which those are', async () => {
    const account = await signUp(server);
    expect(await profileOf(account)).toEqual({
      id: account.userId,
      nickname: expect.stringMatching(/^用户\d{8}$/),
      avatar_url: '',
      fullname: '',
      sex: 0,
      birthday: 0,
      qq: '',
      description: '',
      grade: 0,
      grade_desc: '',
      unset_fields: ['sex', 'birthday', 'grade'],
    });
  });

  it('a set field leaves unset_fields, and female (0) reads as set', async () => {
    const account = await signUp(server);
    const set = await call('PATCH', `${A}/info`, { sex: 0, grade: 10 }, { token: account.token });
    expect(set.status).toBe(204);
    expect(await profileOf(account)).toMatchObject({ sex: 0, birthday: 0, grade: 10, unset_fields: ['birthday'] });
  });
});

describe('profile update (PATCH info, alias PATCH profile)', () => {
  const patch = (account: Account, body: unknown, path = 'info') =>
    call('PATCH', `${A}/${path}`, body, { token: account.token });

  it('answers 204 and stores every allowed field', async () => {
    const account = await signUp(server);
    const changes = {
      nickname: `nick${account.userId}`,
      avatar_url: 'https://cdn.example.com/a.png',
      fullname: '张三',
      birthday: 946_684_800,
      sex: 1,
      qq: '123456',
      description: 'likes maths',
      grade: 7,
    };
    const answer = await patch(account, changes);
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect(await profileOf(account)).toEqual({ id: account.userId, ...changes, grade_desc: '初一', unset_fields: [] });
  });

  it('is also accepted at PATCH profile', async () => {
    const account = await signUp(server);
    expect((await patch(account, { fullname: 'Ada Lovelace' }, 'profile')).status).toBe(204);
    expect((await profileOf(account)).fullname).toBe('Ada Lovelace');
  });

  it('an empty update is 204 and changes nothing', async () => {
    const account = await signUp(server);
    // Fields that are set, so that an update clearing them would show.
    expect((await patch(account, { fullname: 'Ada Lovelace', qq: '123456' })).status).toBe(204);
    const before = await profileOf(account);
    expect((await patch(account, {})).status).toBe(204);
    expect(await profileOf(account)).toEqual(before);
  });

  it('a birthday in the future is AC3_4', async () => {
    const account = await signUp(server);
    const future = Math.floor(Date.now() / 1000) + 86_400;
    expectError(await patch(account, { birthday: future }), 'AC3_4', ClientCode.CANNOT_SET_FUTURE_DATE);
  });

  it('a nickname another user has is AC3_25; keeping one’s own is fine', async () => {
    const first = await signUp(server);
    const second = await signUp(server);
    const nickname = `taken${first.userId}`;
    expect((await patch(first, { nickname })).status).toBe(204);
    expect((await patch(first, { nickname })).status).toBe(204);
    expectError(await patch(second, { nickname }), 'AC3_25', ClientCode.NICKNAME_EXISTS);
  });

  it.each([
    [{ sex: 2 }, ClientCode.INVALID_SEX, 'Invalid sex, it should be 0 or 1.'],
    [
      { description: 'x'.repeat(51) },
      ClientCode.INVALID_DESCRIPTION,
      'Invalid description, it should contains only 0 - 50 characters.',
    ],
    [
      { nickname: 'has space' },
      ClientCode.INVALID_NICKNAME,
      'Invalid nickname "has space", it should match the RegExp.',
    ],
    [{ fullname: 'A' }, ClientCode.INVALID_FULLNAME, 'Invalid fullname "A", it should match the RegExp.'],
    [{ qq: 'abc' }, ClientCode.INVALID_QQ, 'Invalid qq "abc", it should match the RegExp.'],
    [{ birthday: 1.5 }, ClientCode.INVALID_BIRTHDAY, 'Invalid birthday "1.5", it should match the RegExp.'],
    [
      { birthday: '2000-01-01' },
      ClientCode.INVALID_BIRTHDAY,
      'Invalid birthday "2000-01-01", it should match the RegExp.',
    ],
  ])('%j is E_1 with client code %i and the spec message', async (body, number, message) => {
    const account = await signUp(server);
    const answer = await patch(account, body);
    expectError(answer, 'E_1', number);
    expect(answer.body).toMatchObject({ error_message: message });
  });

  it('a field outside the allowed list, an unknown grade or a non-web avatar is E_1', async () => {
    const account = await signUp(server);
    expectError(await patch(account, { username: 'sneaky_name' }), 'E_1');
    // Names every object inherits are not allowed fields either.
    expectError(await patch(account, { toString: 'x' }), 'E_1');
    expectError(await patch(account, { constructor: 1 }), 'E_1');
    expectError(await patch(account, JSON.parse('{"__proto__": {"nickname": "x"}}')), 'E_1');
    expectError(await patch(account, { grade: 99 }), 'E_1');
    expectError(await patch(account, { avatar_url: 'javascript:alert(1)' }), 'E_1');
  });
});

describe('privacy (GET privacy)', () => {
  it('answers {username, email, phone_number (masked), has_password}', async () => {
    const account = await signUp(server);
    const answer = await call<Privacy>('GET', `${A}/privacy`, undefined, { token: account.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      username: '',
      email: '',
      phone_number: `${account.phone.slice(0, 3)}****${account.phone.slice(-4)}`,
      has_password: true,
    });
    expect(answer.body.phone_number).toMatch(/^1\d{2}\*{4}\d{4}$/);
  });

  it('shows the e-mail of an e-mail account', async () => {
    const account = await signUpByEmail(server);
    const answer = await call<Privacy>('GET', `${A}/privacy`, undefined, { token: account.token });
    expect(answer.body).toMatchObject({ email: account.email, phone_number: '' });
  });
});

describe('grade list (GET grade-list)', () => {
  it('answers stages with their grades, anonymously', async () => {
    const answer = await call<GradeStage[]>('GET', `${A}/grade-list`);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(0);
    for (const stage of answer.body) {
      expect(stage).toEqual({ stage: expect.any(String), gradeList: expect.any(Array) });
      for (const grade of stage.gradeList) {
        expect(grade).toEqual({
          grade: expect.any(Number),
          desc: expect.any(String),
          recommended: expect.any(Boolean),
        });
      }
    }
  });
});

describe('third-party accounts (GET oauths)', () => {
  it('answers [{id, name, nickname, is_bound}] for WeChat and QQ', async () => {
    const account = await signUp(server);
    const answer = await call('GET', `${A}/oauths`, undefined, { token: account.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: 1, name: 'wechat', nickname: '', is_bound: false },
      { id: 2, name: 'qq', nickname: '', is_bound: false },
    ]);
  });
});

describe('username (PATCH username)', () => {
  it('sets it once (204); privacy shows it; a second set is AC3_5', async () => {
    const account = await signUp(server);
    const username = `name_${account.userId}_x`;
    expect((await call('PATCH', `${A}/username`, { username }, { token: account.token })).status).toBe(204);
    const privacy = await call<Privacy>('GET', `${A}/privacy`, undefined, { token: account.token });
    expect(privacy.body.username).toBe(username);
    expectError(
      await call('PATCH', `${A}/username`, { username: `${username}y` }, { token: account.token }),
      'AC3_5',
      ClientCode.CANNOT_SET_USERNAME_REPEATEDLY,
    );
  });

  it('a username taken in any letter case is AC3_6', async () => {
    const first = await signUp(server);
    const second = await signUp(server);
    const username = `Taken_${first.userId}`;
    expect((await call('PATCH', `${A}/username`, { username }, { token: first.token })).status).toBe(204);
    expectError(
      await call('PATCH', `${A}/username`, { username: username.toLowerCase() }, { token: second.token }),
      'AC3_6',
      ClientCode.USERNAME_EXISTS,
    );
  });

  it('an invalid username is E_1 with client code 3', async () => {
    const account = await signUp(server);
    const answer = await call('PATCH', `${A}/username`, { username: '1abc' }, { token: account.token });
    expectError(answer, 'E_1', ClientCode.INVALID_USERNAME);
    expect(answer.body).toMatchObject({ error_message: 'Invalid username "1abc", it should match the RegExp.' });
  });
});

import { describe, expect, test } from 'vitest';
import { checkProfile, checkRegister, checks, fieldNamedIn, passwordsEqual } from './validation.ts';

describe('§5 validation rules', () => {
  test.each([
    ['13800138000', true],
    ['19912345678', true],
    ['12800138000', false],
    ['1380013800', false],
    ['138001380000', false],
    [13800138000, false],
  ])('phone_number %s → valid %s', (value, valid) => {
    expect(checks.phone_number(value) === null).toBe(valid);
  });

  test('the generic message quotes the field and value', () => {
    expect(checks.phone_number('123')).toEqual({
      code: 0,
      message: 'Invalid phone_number "123", it should match the RegExp.',
    });
  });

  test.each([
    ['captcha', '123456', '12345'],
    ['password', 'abc123', 'abc12'],
    ['password', 'Abc!@#$%^&*()_+-=123', 'abc 123'],
    ['username', 'alice_1', '1alice'],
    ['username', 'a23456', 'a2345'],
    ['nickname', '小明', 'a b'],
    ['nickname', 'x'.repeat(20), 'x'.repeat(21)],
    ['nickname', 'Ming', 'Ming!'],
    ['fullname', '王小明', '王'],
    ['fullname', 'John Smith', 'John  Smith'],
    ['fullname', 'Anna', 'Ann'],
    ['qq', '12345', '1234'],
    ['email', 'a@b.cn', 'a@b'],
  ] as const)('%s accepts %j and refuses %j', (field, good, bad) => {
    expect(checks[field](good)).toBeNull();
    expect(checks[field](bad)).not.toBeNull();
  });

  test('description, sex, birthday and agreement_ids carry their own messages', () => {
    expect(checks.description('x'.repeat(50))).toBeNull();
    expect(checks.description('x'.repeat(51))?.message).toBe(
      'Invalid description, it should contains only 0 - 50 characters.',
    );
    expect(checks.sex(2)?.message).toBe('Invalid sex, it should be 0 or 1.');
    expect(checks.birthday(1.5)?.code).toBe(9);
    expect(checks.agreement_ids([])?.message).toBe('agreement_ids should not be an empty array.');
    expect(checks.agreement_ids([-1])).toBeNull();
  });

  test('password must equal its confirmation', () => {
    expect(passwordsEqual('abc123', 'abc124')?.message).toBe('Password is not equal to confirmed password.');
    expect(passwordsEqual('abc123', 'abc123')).toBeNull();
  });

  test('the register check covers phone, password, captcha and agreement_ids in that order', () => {
    expect(checkRegister({ phone_number: '1', password: '1', captcha: '1', agreement_ids: [] })?.code).toBe(0);
    expect(checkRegister({ phone_number: '13800138000', password: '1', captcha: '1' })?.code).toBe(2);
    expect(checkRegister({ phone_number: '13800138000', password: 'abc123', captcha: '1' })?.code).toBe(1);
    expect(checkRegister({ phone_number: '13800138000', password: 'abc123', captcha: '123456' })?.code).toBe(55);
  });

  test('the profile check validates only present fields and refuses unknown ones', () => {
    expect(checkProfile({})).toBeNull();
    expect(checkProfile({ avatar_url: 'https://x/y.png', grade: 3 })).toBeNull();
    expect(checkProfile({ sex: 3 })?.code).toBe(8);
    expect(checkProfile({ password: 'x' })).not.toBeNull();
  });
});

describe('fieldNamedIn: the field an E_1 message is about', () => {
  test.each([
    [checks.nickname('a b')?.message ?? '', 'nickname'],
    [checks.phone_number('123')?.message ?? '', 'phone_number'],
    [checks.sex(3)?.message ?? '', 'sex'],
    [checks.description('x'.repeat(51))?.message ?? '', 'description'],
    ['Missing field "captcha".', 'captcha'],
    ['Field "grade" must be an integer from 1 to 99.', 'grade'],
    ['Unknown profile field "password".', 'password'],
    ['avatar_url must be an http(s) URL.', 'avatar_url'],
  ])('%s → %s', (message, field) => {
    expect(fieldNamedIn(message)).toBe(field);
  });

  test('a message naming no field names none', () => {
    expect(fieldNamedIn('Invalid request.')).toBeUndefined();
    expect(fieldNamedIn('Unknown grade 3; see grade-list.')).toBeUndefined();
    expect(fieldNamedIn('')).toBeUndefined();
  });
});

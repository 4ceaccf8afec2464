import { describe, expect, it } from 'vitest';
import { groupPhone, normalizeCode, normalizePhone } from './normalize-digits.ts';

describe('normalizePhone', () => {
  it.each([
    ['13800138000', '13800138000'],
    ['+86 138 0013 8000', '13800138000'],
    ['+86-138-0013-8000', '13800138000'],
    ['0086 13800138000', '13800138000'],
    ['8613800138000', '13800138000'],
    ['138 0013 8000', '13800138000'],
    ['138-0013-8000', '13800138000'],
    ['(138) 0013.8000', '13800138000'],
    ['１３８００１３８０００', '13800138000'],
    ['＋８６ １３８ ００１３ ８０００', '13800138000'],
    ['+86 1', '1'],
    ['138', '138'],
    ['', ''],
    ['138001380001', '138001380001'],
  ])('%s → %s', (raw, digits) => {
    expect(normalizePhone(raw)).toBe(digits);
  });
});

describe('normalizeCode', () => {
  it.each([
    ['123456', '123456'],
    ['123 456', '123456'],
    ['123-456', '123456'],
    ['１２３４５６', '123456'],
    ['您的验证码是 123456', '123456'],
    ['1234567', '123456'],
  ])('%s → %s', (raw, digits) => {
    expect(normalizeCode(raw)).toBe(digits);
  });
});

it('groups a number 3-4-4 as it is typed', () => {
  expect(groupPhone('138')).toBe('138');
  expect(groupPhone('1380')).toBe('138 0');
  expect(groupPhone('13800138')).toBe('138 0013 8');
  expect(groupPhone('13800138000')).toBe('138 0013 8000');
  expect(groupPhone('')).toBe('');
});

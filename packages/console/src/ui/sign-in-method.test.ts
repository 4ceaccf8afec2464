import { fill } from '@edupass/ui-kit/error-text.ts';
import { describe, expect, it } from 'vitest';
import { type ConsoleKey, type ConsoleText, en } from '../i18n/en.ts';
import { zhCN } from '../i18n/zh-CN.ts';
import { signInMethodName } from './sign-in-method.ts';

const inText = (text: ConsoleText) => (key: ConsoleKey, params?: Record<string, string>) => fill(text[key], params);

describe('sign-in method names', () => {
  it.each([
    ['password', 'Password', '密码登录'],
    ['register_phone', 'Signed up by phone', '手机号注册'],
    ['oauth_wechat', 'WeChat', '微信登录'],
    ['password+second_factor', 'Password, then second step', '密码登录，并通过两步验证'],
  ])('%s in plain words in both languages', (method, english, chinese) => {
    expect(signInMethodName(method, inText(en))).toBe(english);
    expect(signInMethodName(method, inText(zhCN))).toBe(chinese);
  });

  it('every method the server records has a name: no raw id on screen', () => {
    for (const method of [
      'phone',
      'phone_silent',
      'email',
      'register_email',
      'oauth_qq',
      'passkey',
      'badge',
      'school_cas',
      'school_saml',
      'school_oidc',
    ]) {
      expect(signInMethodName(method, inText(en))).not.toBe(method);
      expect(signInMethodName(method, inText(zhCN))).not.toMatch(/[a-z]_[a-z]/);
    }
  });

  it('a method not known yet is shown as recorded', () => {
    expect(signInMethodName('smart_card', inText(en))).toBe('smart_card');
  });
});

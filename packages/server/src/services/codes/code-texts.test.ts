/**
 * The text a code goes out in names the site (SITE_NAME) and says what the code is for in plain words,
 * in Chinese and in English; the internal scene id is never in it. Notices of account changes name
 * the site too. Read from the dev outbox, where an
 * SMS without a provider lands with the text a provider would have sent.
 */
import { A, nextPhone, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { noticeAccountChange } from '../account/notices.ts';

const SITE = 'Bright School';
const { call, server } = useTestServer({ site: { name: SITE, logoUrl: undefined } });

const outboxText = async (to: string) => {
  const response = await fetch(`${server.url}/dev/outbox?to=${encodeURIComponent(to)}`);
  const rows = (await response.json()) as { text: string; code: string }[];
  return rows.find((row) => row.code !== '');
};

describe('code texts', () => {
  it('a sign-up code by SMS names the site and says it is for signing up, in both languages', async () => {
    const phone = nextPhone();
    const sent = await call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID });
    expect(sent.status, JSON.stringify(sent.body)).toBe(204);
    const row = await outboxText(phone);
    expect(row?.code).toMatch(/^\d{6}$/);
    const text = row?.text ?? '';
    expect(text.startsWith(`【${SITE}】验证码 ${row?.code}，用于注册${SITE}账号，`)).toBe(true);
    expect(text).toContain(`${SITE}: your code is ${row?.code}, to sign up for ${SITE};`);
    expect(text).not.toContain('EduPass');
    expect(text).not.toMatch(/\bregister\b|\(register\)/);
  });

  it('a notice of an account change names the site', async () => {
    const phone = nextPhone();
    await noticeAccountChange(server.app.ctx, { id: 1, phone, email: null }, 'password_changed');
    const response = await fetch(`${server.url}/dev/outbox?to=${encodeURIComponent(phone)}`);
    const [notice] = (await response.json()) as { text: string }[];
    expect(notice?.text).toMatch(
      new RegExp(`^【${SITE}】账号密码已修改。.* ${SITE}: the password of your account was changed\\.`),
    );
    expect(notice?.text).not.toContain('EduPass');
  });
});

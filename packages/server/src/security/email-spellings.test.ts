/**
 * One mailbox, one target: a mail library hands the domain to the WHATWG host parser (full-width
 * letters and dots folded to ASCII, soft hyphens and other ignored characters dropped, IDN to
 * punycode), so `victim@ｅxample.com` and `victim@EXAMPLE.com.` reach victim@example.com. The server
 * takes every e-mail it is sent in that one spelling before it counts, stores, looks up or sends to
 * it: the spellings share one resend wait and one daily count, cannot open a second account for the
 * mailbox, and an address holding an invisible character (format characters, Unicode Cf) is refused.
 */
import { ACCOUNTS_BASE as A, ClientCode } from '@edupass/protocol';
import { expectError, expectSignedIn, PASSWORD, PID, signUpByEmail } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

let mailboxes = 0;
/** A fresh local part at example.com, and spellings of its domain that a mail library delivers alike. */
const mailbox = () => {
  const local = `spell${Date.now().toString(36)}${++mailboxes}`;
  return {
    plain: `${local}@example.com`,
    spellings: [
      `${local}@\uFF45xample.com`, // full-width e
      `${local}@EXAMPLE.COM`,
      `${local}@e\uFF58ample.com`, // full-width x
      `${local}@example.com.`, // the root's dot
      `${local}@exa\u034Fmple.com`, // a combining grapheme joiner (Mn, not Cf), which IDNA ignores
      `${local}@ex\uFE0Fample.com`, // a variation selector, ignored too
    ],
  };
};

const INVISIBLE = ['\u00AD', '\u200B', '\uFEFF', '\u200D', '\u2060'];

describe('spellings of one mailbox share its limits', () => {
  const { call } = useTestServer({ codeResendSeconds: 60, codeDailyLimit: 2, codeIpHourlyLimit: 1000 });
  const send = (email: string, path = 'email/captcha/send') => call('POST', `${A}/${path}`, { email, pid: PID });

  it('one resend wait: each other spelling within it is AC3_23, and none is sent a code', async () => {
    const { plain, spellings } = mailbox();
    expect((await send(plain)).status).toBe(204);
    for (const spelling of spellings) {
      expectError(await send(spelling), 'AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY);
    }
  });

  it('spellings sent at the same moment: one code goes out, every other send is AC3_23', async () => {
    const { plain, spellings } = mailbox();
    const answers = await Promise.all([plain, ...spellings].map((spelling) => send(spelling)));
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 204)) {
      expectError(answer, 'AC3_23', ClientCode.SEND_CAPTCHA_TOO_FREQUENTLY);
    }
  });

  it('one daily count across purposes and spellings: past CODE_DAILY_LIMIT is AC3_48', async () => {
    for (let i = 1; i < mailbox().spellings.length; i++) {
      const { plain, spellings } = mailbox();
      expect((await send(plain)).status).toBe(204);
      expect((await send(spellings[0] as string, 'email/captcha/password/reset')).status).toBe(204);
      expectError(await send(spellings[i] as string, 'email/captcha/login'), 'AC3_48', ClientCode.CAPTCHA_SEND_LIMIT);
    }
  });
});

describe('one spelling taken in', () => {
  const { server, call } = useTestServer({ codeResendSeconds: 0 });

  it('a code asked for another spelling goes to the plain address, and a second account for it is AC3_61', async () => {
    const { plain, spellings } = mailbox();
    const owner = await signUpByEmail(server, plain);
    for (const spelling of spellings) {
      expectError(await call('POST', `${A}/email/captcha/send`, { email: spelling, pid: PID }), 'AC3_61');
    }
    // A sign-in code asked for the full-width spelling is the account's, and is sent to its address.
    const before = await server.lastCode(plain);
    expect((await call('POST', `${A}/email/captcha/login`, { email: spellings[0], pid: PID })).status).toBe(204);
    await expect.poll(() => server.lastCode(plain)).not.toBe(before);
    expect(await server.lastCode(spellings[0] as string)).toBeUndefined();
    // The password sign-in finds the account by any spelling.
    const login = await call('POST', `${A}/login`, { identity: spellings[0], password: PASSWORD, pid: PID });
    expect(expectSignedIn(login).user_info.id).toBe(owner.userId);
  });

  it('an internationalised domain is taken in its punycode form, and either spelling is one account', async () => {
    const local = `idn${Date.now().toString(36)}`;
    const unicode = `${local}@例子.中国`;
    const ascii = `${local}@xn--fsqu00a.xn--fiqs8s`;
    expect((await call('POST', `${A}/email/captcha/send`, { email: unicode, pid: PID })).status).toBe(204);
    const captcha = (await server.lastCode(ascii)) as string;
    expect(captcha).toMatch(/^\d{6}$/);
    expect(await server.lastCode(unicode)).toBeUndefined();
    const checked = await call<{ ticket: string }>('POST', `${A}/email/captcha/check`, {
      email: unicode,
      captcha,
    });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const registered = await call('POST', `${A}/email/register`, {
      captchaTicket: checked.body.ticket,
      password: PASSWORD,
      rePassword: PASSWORD,
      pid: PID,
      agreement_ids: [-1],
    });
    expect(expectSignedIn(registered).auth.email).toBe(ascii);
    expectError(await call('POST', `${A}/email/captcha/send`, { email: ascii, pid: PID }), 'AC3_61');
    const login = await call('POST', `${A}/login`, { identity: unicode, password: PASSWORD, pid: PID });
    expect(expectSignedIn(login).auth.email).toBe(ascii);
  });

  it.each(INVISIBLE)('an address holding %j is refused E_1 with a message, and nothing is sent', async (mark) => {
    const { plain } = mailbox();
    const [local, domain] = plain.split('@') as [string, string];
    for (const spelling of [
      `${local}@e${mark}xample.com`,
      `${local}@ex${mark}ample.com`,
      `${local}${mark}@${domain}`,
    ]) {
      const answer = await call('POST', `${A}/email/captcha/send`, { email: spelling, pid: PID });
      expectError(answer, 'E_1', ClientCode.INVALID_EMAIL);
      expect((answer.body as { error_message?: string }).error_message).toMatch(/^Invalid email\b.*invisible/);
    }
    expect(await server.lastCode(plain)).toBeUndefined();
  });

  it('an address whose domain no host parser reads is refused E_1', async () => {
    // `%` would be percent-decoded, `/`, `?` and `#` cut the host short, brackets make an address
    // literal: a host parser and a mail library would not read them alike.
    for (const domain of ['ex%61mple.com', 'evil.com/example.com', 'ex?ample.com', 'ex#ample.com', '[1.2.3.4]']) {
      const email = `a@${domain}`;
      const answer = await call('POST', `${A}/email/captcha/send`, { email, pid: PID });
      expectError(answer, 'E_1', ClientCode.INVALID_EMAIL);
      expect((answer.body as { error_message?: string }).error_message).toMatch(/^Invalid email\b/);
    }
  });
});

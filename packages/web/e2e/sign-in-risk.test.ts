/**
 * Sign-in in Chromium, in zh-CN and en, under the default captcha policy (risk), as a classroom behind
 * one school address meets it: SMS codes for many numbers put up no puzzle; three password typos put up
 * none (the fourth attempt does); a locked account shows the time left counting down, asks no puzzle,
 * sends nothing while it counts, and offers the two ways in that do not wait — an SMS code (on the SMS
 * tab, the number already typed) and a password reset. axe finds nothing serious.
 */
import { nextPhone, signUp } from '@edupass/test-kit/accounts';
import { captchaWith } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';

const WORDS = {
  'zh-CN': {
    title: '登录',
    passwordTab: '密码登录',
    smsTab: '验证码登录',
    identity: '手机号、用户名或邮箱',
    password: '密码',
    phone: '手机号',
    submit: '登录',
    wrong: '账号或密码错误。',
    locked: '密码错误次数过多，密码登录已暂时锁定。',
    left: /^(\d+):(\d\d) 后可再试。$/,
    sms: '用短信验证码登录',
    getCode: '获取验证码',
    reset: '重置密码',
    resetTitle: '重置密码',
  },
  en: {
    title: 'Sign in',
    passwordTab: 'Password',
    smsTab: 'SMS code',
    identity: 'Phone, username or e-mail',
    password: 'Password',
    phone: 'Phone number',
    submit: 'Sign in',
    wrong: 'The account or password is wrong.',
    locked: 'Too many wrong passwords: sign-in with a password is locked for now.',
    left: /^Try again in (\d+):(\d\d)\.$/,
    sms: 'Sign in with an SMS code',
    getCode: 'Get code',
    reset: 'Reset your password',
    resetTitle: 'Reset your password',
  },
} as const;
type Locale = keyof typeof WORDS;

const LOCK_AFTER = 4;
const LOCK_SECONDS = 600;

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp({
    ...captchaWith({ '*:*': 'risk' }),
    loginLockAfter: LOCK_AFTER,
    loginSlowdownAfter: LOCK_AFTER,
    loginLockSeconds: LOCK_SECONDS,
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
});

const mask = (tab: TestPage) => tab.page.locator('[data-edupass-captcha="mask"]');

/** The sign-in screen's password tab, fresh, in `locale`. */
const openPasswordSignIn = async (locale: Locale) => {
  const words = WORDS[locale];
  const tab = await openPage(app.browser, { locale });
  await tab.page.goto(app.server.url);
  await expectScreen(tab.page, words.title);
  await tab.page.getByRole('tab', { name: words.passwordTab }).click();
  return tab;
};

const fillIn = async (tab: TestPage, locale: Locale, identity: string, password: string) => {
  const { page } = tab;
  const words = WORDS[locale];
  await page.getByLabel(words.identity, { exact: true }).fill(identity);
  await page
    .locator('input')
    .and(page.getByLabel(words.password, { exact: true }))
    .fill(password);
};

/** Types `password` for `identity` and submits; resolves once the server has answered the sign-in. */
const tryPassword = async (tab: TestPage, locale: Locale, identity: string, password: string) => {
  await fillIn(tab, locale, identity, password);
  const answered = tab.page.waitForResponse((response) => response.url().endsWith('/login/security'));
  await tab.page.getByRole('button', { name: WORDS[locale].submit, exact: true }).click();
  await answered;
};

/** The seconds the countdown shows. */
const shownSeconds = async (tab: TestPage, locale: Locale) => {
  const text = (await tab.page.getByTestId('lock-left').textContent()) ?? '';
  const match = WORDS[locale].left.exec(text.trim());
  expect(match, text).not.toBeNull();
  return Number(match?.[1]) * 60 + Number(match?.[2]);
};

describe.each(['zh-CN', 'en'] as const)('sign-in in %s', (locale) => {
  const words = WORDS[locale];

  it('a classroom asking for SMS codes from one address meets no puzzle', async () => {
    const tab = await openPage(app.browser, { locale });
    try {
      await tab.page.goto(app.server.url);
      await expectScreen(tab.page, words.title);
      const phoneBox = tab.page.locator('input').and(tab.page.getByLabel(words.phone, { exact: true }));
      // More than a dozen pupils in a row (each its own number), the page reloaded for each as another pupil would.
      for (let pupil = 0; pupil < 15; pupil++) {
        if (pupil > 0) {
          await tab.page.reload();
          await expectScreen(tab.page, words.title);
        }
        await phoneBox.fill(nextPhone());
        const sent = tab.page.waitForResponse((response) => response.url().endsWith('/captcha/login/silence'));
        await tab.page.getByRole('button', { name: words.getCode }).click();
        expect((await sent).status(), `pupil ${pupil}`).toBe(204);
        expect(await mask(tab).count(), `pupil ${pupil}`).toBe(0);
      }
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
    // Fifteen page loads and sends: about 20 s alone, more with the suite's two workers on a loaded machine.
  }, 120_000);

  it('three typos put up no puzzle; the fourth attempt does', async () => {
    app.server.config.loginLockAfter = 10;
    const { phone } = await signUp(app.server);
    const tab = await openPasswordSignIn(locale);
    try {
      for (let i = 1; i <= 3; i++) {
        await tryPassword(tab, locale, phone, `Typo${i}2345x`);
        // Said at the password field (errors at their field), no longer in the form's alert box.
        await tab.page.getByText(words.wrong).first().waitFor();
        expect(await mask(tab).count(), `after typo ${i}`).toBe(0);
      }
      // The fourth: the rule puts up the puzzle before anything is sent.
      await fillIn(tab, locale, phone, 'Typo42345x');
      await tab.page.getByRole('button', { name: words.submit, exact: true }).click();
      await mask(tab).waitFor();
      await tab.page.keyboard.press('Escape');
      await mask(tab).waitFor({ state: 'detached' });
      expect(tab.errors).toEqual([]);
    } finally {
      app.server.config.loginLockAfter = LOCK_AFTER;
      await tab.close();
    }
  });

  it('locked: the time left counts down and outlives a reload, no puzzle, and the SMS code and reset ways out', async () => {
    // An account whose password guesses used up the lock (over the API, three typos and one after a puzzle).
    const { phone } = await signUp(app.server);
    app.server.config.captcha.riskLoginFailures = LOCK_AFTER;
    const tab = await openPasswordSignIn(locale);
    try {
      for (let i = 1; i <= LOCK_AFTER; i++) {
        await tryPassword(tab, locale, phone, `Typo${i}2345x`);
        // Said at the password field (errors at their field), no longer in the form's alert box.
        await tab.page.getByText(words.wrong).first().waitFor();
      }
      app.server.config.captcha.riskLoginFailures = 3;
      // The right password now: the lock answers, with the time left; no puzzle was asked first.
      await tryPassword(tab, locale, phone, 'Kestrel2718');
      const notice = tab.page.getByTestId('lock-notice');
      await notice.getByRole('alert').filter({ hasText: words.locked }).waitFor();
      expect(await mask(tab).count()).toBe(0);
      const first = await shownSeconds(tab, locale);
      expect(first).toBeGreaterThan(LOCK_SECONDS - 120);
      expect(first).toBeLessThanOrEqual(LOCK_SECONDS);
      // It counts down.
      await expect.poll(() => shownSeconds(tab, locale)).toBeLessThan(first);
      // While it counts, the button sends nothing.
      const submit = tab.page.getByRole('button', { name: words.submit, exact: true });
      expect(await submit.getAttribute('aria-disabled')).toBe('true');
      let sent = 0;
      tab.page.on('request', (request) => {
        if (/\/login\/security$|\/captcha\/rule\/v3$/.test(request.url())) sent++;
      });
      // Enter in the password box submits the form as a click would; a click on a disabled button does nothing.
      await tab.page
        .locator('input')
        .and(tab.page.getByLabel(words.password, { exact: true }))
        .press('Enter');
      await submit.click({ force: true });
      await tab.page.getByTestId('lock-left').waitFor();
      expect(sent).toBe(0);
      expect(await seriousViolations(tab.page)).toEqual([]);

      // Way out 1: the SMS code, on its tab, the number already there.
      await notice.getByRole('button', { name: words.sms }).click();
      expect(await tab.page.getByRole('tab', { name: words.smsTab }).getAttribute('aria-selected')).toBe('true');
      const phoneBox = tab.page.locator('input').and(tab.page.getByLabel(words.phone, { exact: true }));
      // Shown grouped (139 1234 5678); the digits are the number typed on the password tab.
      expect((await phoneBox.inputValue()).replace(/\s/g, '')).toBe(phone);
      // …and the code goes out without a puzzle.
      const codeSent = tab.page.waitForResponse((response) => response.url().endsWith('/captcha/login/silence'));
      await tab.page.getByRole('button', { name: words.getCode }).click();
      expect((await codeSent).status()).toBe(204);
      expect(await mask(tab).count()).toBe(0);

      // Way out 2: the reset link. Back on the password tab, the account typed again shows the lock at
      // once, and a reload does not forget it: nothing is sent to find out again.
      sent = 0;
      await tab.page.reload();
      await expectScreen(tab.page, words.title);
      await tab.page.getByRole('tab', { name: words.passwordTab }).click();
      await fillIn(tab, locale, phone, 'Kestrel2718');
      await tab.page.getByTestId('lock-left').waitFor();
      const afterReload = await shownSeconds(tab, locale);
      expect(afterReload).toBeGreaterThan(0);
      expect(afterReload).toBeLessThan(first);
      await tab.page.getByRole('button', { name: words.submit, exact: true }).click({ force: true });
      // Another account typed: no lock shown for it.
      await fillIn(tab, locale, nextPhone(), 'Kestrel2718');
      await expect.poll(() => tab.page.getByTestId('lock-notice').count()).toBe(0);
      await fillIn(tab, locale, phone, 'Kestrel2718');
      expect(sent).toBe(0);
      await tab.page.getByTestId('lock-notice').getByRole('link', { name: words.reset }).click();
      await expectScreen(tab.page, words.resetTitle);
      expect(tab.errors).toEqual([]);
    } finally {
      app.server.config.captcha.riskLoginFailures = 3;
      await tab.close();
    }
  });
});

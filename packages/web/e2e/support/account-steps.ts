/** Small steps the account-centre browser tests share: fresh phone numbers, codes from the outbox, inputs by label. */
import { cookieNames } from '@edupass/account';
import { routes } from '@edupass/protocol';
import { newCodeFor as newCodeAt } from '@edupass/test-kit/accounts';
import type { Page } from 'playwright-core';
import type { AppUnderTest } from './app-server.ts';
import { expectScreen, type TestPage } from './pages.ts';

/** A maker of phone numbers no other test uses: `prefix` (4 digits) names the test file. */
export const phoneNumbers = (prefix: string) => {
  let seq = 0;
  return () => `${prefix}${String(Date.now() % 1_000_000).padStart(6, '0')}${seq++ % 10}`;
};

export const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** The input (not the show-password toggle) with this accessible label. */
export const inputLabelled = (tab: TestPage, label: string) =>
  tab.page.locator('input').and(tab.page.getByLabel(label, { exact: true }));

/** The code last sent to `to`, once it is a new one (not `previous`). */
export const newCodeFor = (app: AppUnderTest, to: string, previous?: string): Promise<string> =>
  newCodeAt(app.server, to, previous);

/** Signs up in the page (at `base`, the server's URL unless given) with a phone, its code and a password, and opens "Sign-in & security". */
export const signUpByPhone = async (
  app: AppUnderTest,
  tab: TestPage,
  phone: string,
  password: string,
  base = app.server.url,
  /** The answer to the age question (an adult's unless told). */
  birth: { year?: string; month?: string } = {},
) => {
  const { page } = tab;
  await page.goto(base);
  // The first screen of a fresh page: the screens' limit on a loaded machine.
  await expectScreen(page, 'Sign in');
  await page.getByRole('link', { name: 'Sign up' }).click();
  // The sign-in screen, with a "Phone number" of its own, stays until the sign-up screen has loaded.
  await expectScreen(page, 'Create an account');
  await inputLabelled(tab, 'Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await inputLabelled(tab, 'Verification code').fill(await newCodeFor(app, phone));
  await inputLabelled(tab, 'Password').fill(password);
  await answerBirthMonth(page, birth);
  await page.getByLabel('I have read and agree to').check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expectScreen(page, 'Profile');
  await page.getByRole('link', { name: 'Sign-in & security' }).click();
  await expectScreen(page, 'Sign-in & security');
};

/** Shows the page (reloaded) in `locale` from now on, as choosing it in the header does. */
export const switchLocale = async (page: Page, locale: string) => {
  await page.evaluate((chosen) => localStorage.setItem('edupass.locale', chosen), locale);
  await page.reload();
};

/**
 * On "Sign-in & security" (its list or one of its forms): opens the row named `name` (its form's
 * heading) from the list and answers the form's region.
 */
export const openSecurityRow = async (page: Page, name: string) => {
  const region = page.getByRole('region', { name, exact: true });
  const back = page.locator('.back-link');
  // First the page must show the list or a form (after a reload it may still be loading, and a reload
  // of a row's address brings its form back, not the list): as long as a screen may take.
  await page.locator('.security-rows').or(back).or(region).first().waitFor();
  if (await region.count()) return region;
  // Another row's form is open: back to the list first.
  if (await back.count()) await back.click();
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('link', { name: new RegExp(`^${escaped}\\s`) }).click();
  await region.waitFor();
  return region;
};

/**
 * The sign-up's age question, answered (an adult's month unless told): the two lists, by their names
 * in the page's language ('Year' and 'Month', '年' and '月').
 */
export const answerBirthMonth = async (
  page: TestPage['page'],
  { year = '1990', month = '05', zh = false }: { year?: string; month?: string; zh?: boolean } = {},
) => {
  await page.getByRole('combobox', { name: zh ? '年' : 'Year', exact: true }).selectOption(year);
  await page.getByRole('combobox', { name: zh ? '月' : 'Month', exact: true }).selectOption(month);
};

/** On the sign-in screen, in English: the phone, the code sent to it, the agreements ticked, "Sign in". */
export const signInBySms = async (app: AppUnderTest, tab: TestPage, phone: string) => {
  await expectScreen(tab.page, 'Sign in');
  await signInByCode(app, tab, phone, {
    'form.phone': 'Phone number',
    'form.code': 'Verification code',
    'code.send': 'Get code',
    'agree.prefix': 'I have read and agree to',
    'signIn.submit': 'Sign in',
  });
};

/** The sign-in screen's words a password sign-in goes by, in one language. */
type PasswordSignInWords = Record<'signIn.tabPassword' | 'form.identity' | 'form.password' | 'signIn.submit', string>;
const ENGLISH_SIGN_IN: PasswordSignInWords = {
  'signIn.tabPassword': 'Password',
  'form.identity': 'Phone, username or e-mail',
  'form.password': 'Password',
  'signIn.submit': 'Sign in',
};

/** On the sign-in screen, in English unless `text` says the page's words: the password tab, the identity and the password, "Sign in". */
export const signInByPassword = async (
  tab: TestPage,
  identity: string,
  password: string,
  text: PasswordSignInWords = ENGLISH_SIGN_IN,
) => {
  const { page } = tab;
  await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
  await inputLabelled(tab, text['form.identity']).fill(identity);
  await inputLabelled(tab, text['form.password']).fill(password);
  await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
};

const PROVIDER_NAMES = { wechat: 'WeChat', qq: 'QQ' } as const;

/**
 * From the sign-in screen, in English: a new `nickname` at the development WeChat or QQ provider, then
 * on without a phone, the agreements ticked.
 */
export const newUserByDevProvider = async (tab: TestPage, provider: 'wechat' | 'qq', nickname: string) => {
  const { page } = tab;
  await page.locator(`.oauth-${provider}`).click();
  await page.getByLabel('昵称 · Nickname').fill(nickname);
  await page.getByRole('button', { name: '新建并登录 · Create and sign in' }).click();
  await expectScreen(page, `Finish signing in with ${PROVIDER_NAMES[provider]}`);
  await page.getByLabel('I have read and agree to').check();
  await page.getByRole('button', { name: 'Continue without a phone' }).click();
};

/** A password sign-in over HTTP beside the page (another device), with the token set: the raw answer. */
export const passwordSignInAnswer = (app: AppUnderTest, phone: string, password: string) =>
  fetch(`${app.server.url}${routes.loginByPassword.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Auth-Version': '2' },
    body: JSON.stringify({ identity: phone, password, pid: 'edupass' }),
  });

/**
 * Opens `path` signed in with a session the test made over the API (test-kit/accounts' signUp and
 * friends): its token set put in the cookies where the web client keeps it, for the stories where the
 * sign-in itself is not what is tested.
 */
export const openSignedIn = async (
  app: AppUnderTest,
  tab: TestPage,
  session: { token: string; refresh: string },
  path: string,
) => {
  const url = app.server.url;
  const names = cookieNames('prod');
  await tab.page.context().addCookies([
    { name: names.access, value: encodeURIComponent(session.token), url },
    { name: names.type, value: 'Bearer', url },
    { name: names.refresh, value: encodeURIComponent(session.refresh), url },
  ]);
  await tab.page.goto(`${url}${path}`);
};

/** The sign-in screen's words a code sign-in goes by, in one language. */
type CodeSignInWords = Record<'form.phone' | 'form.code' | 'code.send' | 'agree.prefix' | 'signIn.submit', string>;

/** On the sign-in screen, in the page's language: the phone, the code sent to it, the agreements ticked, "Sign in". */
export const signInByCode = async (app: AppUnderTest, tab: TestPage, phone: string, text: CodeSignInWords) => {
  const { page } = tab;
  await inputLabelled(tab, text['form.phone']).fill(phone);
  // A number that signed up before has had a code already: wait for the one this sign-in sends.
  const previous = await app.server.lastCode(phone);
  await page.getByRole('button', { name: text['code.send'] }).click();
  await inputLabelled(tab, text['form.code']).fill(await newCodeFor(app, phone, previous));
  await page.getByLabel(text['agree.prefix']).check();
  await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
};

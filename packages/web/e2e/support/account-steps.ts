/** Small steps the account-centre browser tests share: fresh phone numbers, codes from the outbox, inputs by label. */
import { newCodeFor as newCodeAt } from '@edupass/test-kit/accounts';
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
) => {
  const { page } = tab;
  await page.goto(base);
  await page.getByRole('link', { name: 'Sign up' }).click();
  await inputLabelled(tab, 'Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await inputLabelled(tab, 'Verification code').fill(await newCodeFor(app, phone));
  await inputLabelled(tab, 'Password').fill(password);
  await page.getByLabel('I have read and agree to').check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expectScreen(page, 'Profile');
  await page.getByRole('link', { name: 'Sign-in & security' }).click();
  await expectScreen(page, 'Sign-in & security');
};

/** On the sign-in screen, in English: the phone, the code sent to it, the agreements ticked, "Sign in". */
export const signInBySms = async (app: AppUnderTest, tab: TestPage, phone: string) => {
  const { page } = tab;
  await expectScreen(page, 'Sign in');
  await inputLabelled(tab, 'Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await inputLabelled(tab, 'Verification code').fill(await newCodeFor(app, phone));
  await page.getByLabel('I have read and agree to').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

/** On the sign-in screen, in English: the password tab, the identity and the password, "Sign in". */
export const signInByPassword = async (tab: TestPage, identity: string, password: string) => {
  const { page } = tab;
  await page.getByRole('tab', { name: 'Password' }).click();
  await inputLabelled(tab, 'Phone, username or e-mail').fill(identity);
  await inputLabelled(tab, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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

/**
 * Single sign-on through EduPass in Chromium: two demo applications (openid-client) on their own
 * ports. Signing in to the first (phone + SMS code on EduPass's screens) signs the second in without
 * credentials; a key rotation in the middle signs nobody out; signing out of one ends both. The
 * interaction is read once per sign-in, across a round trip to WeChat too; an SMS code's, a
 * password's, an e-mail code's, a WeChat return's, a second factor's and a pupil's card's sign-in goes
 * straight back to the product in one call (the card, still on the school's password, through the
 * pupil's own password first), reported to usage events as any sign-in where the device agreed, never
 * a child's. (A passkey's: second-factor.test.ts, where the page is at `localhost`.) And the return to
 * an application without OpenID Connect: an allow-listed `redirect` is followed after SMS sign-in and
 * after a WeChat round trip, one that is not allowed lands on the account with a notice.
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { agreementIdsInEffect, PASSWORD, signInOperator, signUp, signUpByEmail } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { bornYearsAgo, eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { enrolAuthenticatorApp } from '@edupass/test-kit/second-factors';
import { insertAgreement, rotateSigningKey } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { usageDb } from '../../server/src/store/usage/events.ts';
import {
  inputLabelled,
  newCodeFor,
  newUserByDevProvider,
  phoneNumbers,
  signInByCode,
  signInByPassword,
  signInBySms,
} from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, startDemoApp } from './support/demo-app.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage, type TestPage } from './support/pages.ts';
import { firstPartyReadKept, recordApiCalls } from './support/product-sign-in.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

let app: AppUnderTest;
let courses: DemoApp;
let community: DemoApp;
let quiz: DemoApp;
const nextPhone = phoneNumbers('1571');
const SCREENSHOTS = `${import.meta.dirname}/screenshots`;

/** The web client's calls about the interaction from now on, its uid left out: `GET`, `POST /complete`. */
const recordInteractionCalls = (page: Page): string[] => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const called = new URL(request.url()).pathname.match(/\/interactions\/[^/]+(\/.*)?$/);
    if (called) calls.push(`${request.method()} ${called[1] ?? ''}`.trim());
  });
  return calls;
};

/** Every call the web client makes of EduPass's API from now on, as `METHOD /path`. */
const recordEduPassCalls = (page: Page) => recordApiCalls(page, app.server.url);

/** A pupil's printed card at a school with its agreement, the pupil past the password choice unless asked. */
const printedCardOfPupil = async (ownPasswordChosen = true) => {
  const steps = eduSteps(app.server, client(app.server.url));
  const schoolId = await steps.addSchool('育才小学');
  const teacher = await steps.approvedTeacher(schoolId);
  const classId = await steps.createClass(teacher, schoolId, '四年级一班');
  const [pupil] = await steps.createPupils(teacher, classId, ['林小雨']);
  if (pupil === undefined) throw new Error('no pupil made');
  // Its own password chosen already (pupil-cards.test.ts walks the choice): the card's sign-in goes on.
  await app.server.app.ctx.db
    .updateTable('pupil_accounts')
    .set({ must_change_password: ownPasswordChosen ? 0 : 1 })
    .where('user_id', '=', pupil.user_id)
    .execute();
  const badge = badgeOf(decodeCardQrCodes((await steps.cardSheet(teacher, classId, 'zh-CN')).html)[0] ?? '');
  return { badge, password: pupil.password, userId: pupil.user_id };
};

/** Courses sends the visitor to EduPass's sign-in screen (in Chinese), which names it. */
const openCoursesSignIn = async (page: Page) => {
  await page.goto(courses.origin);
  await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
  await expectScreen(page, '登录 Courses');
  await firstPartyReadKept(page);
};

const PASSWORD_IN_CHINESE = {
  'signIn.tabPassword': '密码登录',
  'form.identity': '手机号、用户名或邮箱',
  'form.password': '密码',
  'signIn.submit': '登录',
};

beforeAll(async () => {
  [app, courses, community, quiz] = await Promise.all([
    startApp(),
    startDemoApp('Courses'),
    startDemoApp('Community'),
    startDemoApp('Quiz'),
  ]);
  const issuer = `${app.server.url}/oidc`;
  const operator = (await signInOperator(app.server)).token;
  const a = await registerApp(
    app.server,
    {
      name: 'Courses',
      redirect_uris: [`${courses.origin}/callback`],
      post_logout_redirect_uris: [`${courses.origin}/`],
    },
    operator,
  );
  const b = await registerApp(
    app.server,
    {
      name: 'Community',
      redirect_uris: [`${community.origin}/callback`],
      post_logout_redirect_uris: [`${community.origin}/`],
      confidential: false,
    },
    operator,
  );
  const c = await registerApp(
    app.server,
    { name: 'Quiz', redirect_uris: [`${quiz.origin}/callback`], first_party: false, confidential: false },
    operator,
  );
  await quiz.connect(issuer, c.application.client_id);
  await courses.connect(issuer, a.application.client_id, a.client_secret);
  await community.connect(issuer, b.application.client_id);
});

afterAll(async () => {
  await Promise.all([courses?.close(), community?.close(), quiz?.close()]);
  await app?.close();
});

test('one EduPass sign-in signs in to both apps; a key rotation signs nobody out; signing out ends both', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(courses.origin);
    await expectScreen(page, 'Courses: signed out');
    // The sign-in screen reads the interaction once, and the SMS sign-in names a first-party
    // application's, which the server completes with it: no second read, no gate, no completion.
    const interactionCalls = recordInteractionCalls(page);
    const calls = recordEduPassCalls(page);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Sign in to Courses');
    const phone = nextPhone();
    await signInBySms(app, tab, phone);
    await page.waitForURL(`${courses.origin}/`).catch(async () => {
      throw new Error(`still at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)}`);
    });
    await expectScreen(page, 'Courses: signed in');
    await page.getByText(`Signed in as ${phone}`).waitFor();
    expect(interactionCalls).toEqual(['GET']);
    expect(calls.slice(calls.indexOf('POST /tiger/v3/web/accounts/captcha/login/silence') + 1)).toEqual([
      'POST /tiger/v3/web/accounts/phone/login/silence',
    ]);

    await rotateSigningKey(app.server.app.ctx, true);

    // The second app: EduPass's session signs it in, no credentials asked.
    await page.goto(community.origin);
    await expectScreen(page, 'Community: signed out');
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Community: signed in');
    expect(new URL(page.url()).origin).toBe(community.origin);
    await page.goto(courses.origin);
    await expectScreen(page, 'Courses: signed in');

    // Signing out of the first app (RP-initiated logout, "sign out everywhere") ends both and EduPass's.
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expectScreen(page, 'Courses: signed out');
    await page.goto(community.origin);
    await expectScreen(page, 'Community: signed out');
    await page.goto(`${app.server.url}/account`);
    await expectScreen(page, 'Sign in');
    expect(tab.errors).toEqual([]);
  });
});

test('a product sign-in through a WeChat round trip reads the interaction once, and the account made goes straight back', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(courses.origin);
    const interactionCalls = recordInteractionCalls(page);
    const calls = recordEduPassCalls(page);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Sign in to Courses');
    await expect.poll(() => interactionCalls).toEqual(['GET']);
    // The page is left for the provider and loaded again on the way back: the read is kept with the
    // return, and the account made for the WeChat identity completes the product's sign-in.
    await newUserByDevProvider(tab, 'wechat', `wx${Date.now().toString(36).slice(-5)}`);
    await expectScreen(page, 'Courses: signed in');
    expect(interactionCalls).toEqual(['GET']);
    expect(calls.slice(calls.indexOf('POST /tiger/v3/web/accounts/oauth/third-party'))).toEqual([
      'POST /tiger/v3/web/accounts/oauth/third-party',
    ]);
    expect(tab.errors).toEqual([]);
  });
});

test('a password sign-in where a product waits, on a phone: one call after the password, then the product', async () => {
  const account = await signUp(app.server, nextPhone(), PASSWORD, await agreementIdsInEffect(app.server));
  await inPage(app.browser, { locale: 'zh-CN', ...PHONE }, async (tab) => {
    const { page } = tab;
    const calls = recordEduPassCalls(page);
    await openCoursesSignIn(page);
    const before = calls.length;
    await signInByPassword(tab, account.phone, PASSWORD, PASSWORD_IN_CHINESE);
    await expectScreen(page, 'Courses: signed in');
    // The captcha service's ticket (an ordinary attempt: no puzzle), then the sign-in, which completed
    // the product's: no agreements' read, no consent's, no completion.
    expect(calls.slice(before).filter((call) => !call.includes('/captcha/'))).toEqual([
      'POST /tiger/v3/web/accounts/login/security',
    ]);
    expect(tab.errors).toEqual([]);
  });
});

test('an e-mail code sign-in where a product waits, on a phone in Chinese: one call after the code, then the product', async () => {
  const account = await signUpByEmail(app.server);
  await inPage(app.browser, { locale: 'zh-CN', ...PHONE }, async (tab) => {
    const { page } = tab;
    const calls = recordEduPassCalls(page);
    await openCoursesSignIn(page);
    await page.getByRole('tab', { name: '邮箱验证码' }).click();
    await inputLabelled(tab, '电子邮箱').fill(account.email);
    const signUpCode = await app.server.lastCode(account.email);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await inputLabelled(tab, '验证码').fill(await newCodeFor(app, account.email, signUpCode));
    await page.getByLabel('我已阅读并同意').check();
    const before = calls.length;
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expectScreen(page, 'Courses: signed in');
    await page.getByText(`Signed in as ${account.userId}`).waitFor();
    // The sign-in completed the product's: no agreements' read, no consent's, no completion.
    expect(calls.slice(before)).toEqual(['POST /tiger/v3/web/accounts/email/login']);
    expect(tab.errors).toEqual([]);
  });
});

test("a teacher's sign-in with an authenticator app, on a desktop: after the code, one call, then the product", async () => {
  const teacher = await signUp(app.server, nextPhone(), PASSWORD, await agreementIdsInEffect(app.server));
  const { secret } = await enrolAuthenticatorApp(client(app.server.url), teacher.token);
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    const calls = recordEduPassCalls(page);
    await page.goto(courses.origin);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Sign in to Courses');
    await firstPartyReadKept(page);
    await signInByPassword(tab, teacher.phone, PASSWORD);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    // The enrolment used this step's code: the next step's, which the server takes as a phone's drift.
    await inputLabelled(tab, 'Code').fill(totpCode(secret, stepAt(Date.now()) + 1));
    const before = calls.length;
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectScreen(page, 'Courses: signed in');
    expect(calls.slice(before)).toEqual(['POST /tiger/v3/web/accounts/second-factor/verify']);
    expect(tab.errors).toEqual([]);
  });
});

test('a sign-in that leaves for the product at once is reported where the device agreed, but never a child’s', async () => {
  const adult = await signUp(app.server, nextPhone(), PASSWORD, await agreementIdsInEffect(app.server));
  const { badge, userId: pupil } = await printedCardOfPupil();
  /** The product's sign-in, in a tab whose device agreed to usage reports, signed in by `signIn`. */
  const signInToCourses = (signIn: (tab: TestPage) => Promise<void>) =>
    inPage(app.browser, { locale: 'zh-CN', width: 768, height: 1024, consent: 'granted' }, async (tab) => {
      await openCoursesSignIn(tab.page);
      await signIn(tab);
      await expectScreen(tab.page, 'Courses: signed in');
      expect(tab.errors).toEqual([]);
    });
  /** The usage events stored of `userId`, by key. */
  const eventsOf = async (userId: number) =>
    (
      await usageDb(app.server.app.ctx.db)
        .selectFrom('usage_events')
        .select(['event_key', 'data'])
        .where('user_id', '=', String(userId))
        .execute()
    ).map((row) => `${row.event_key} ${row.data}`);
  await signInToCourses(async ({ page }) => {
    await page.goto(`${app.server.url}/badge#${badge}`);
  });
  await signInToCourses((tab) => signInByPassword(tab, adult.phone, PASSWORD, PASSWORD_IN_CHINESE));
  // Sent as the page was left for the product (a beacon): the sign-in, with its method.
  await expect
    .poll(() => eventsOf(adult.userId), { timeout: 30_000 })
    .toContainEqual(expect.stringMatching(/^sign_in .*"password"/));
  // The pupil's tab, left earlier the same way, reported its page views as a visitor's; of the child,
  // nothing.
  expect(await eventsOf(pupil)).toEqual([]);
});

test("a pupil's card opened where a product waits goes straight back to it: one call, no gate, no completion", async () => {
  const { badge } = await printedCardOfPupil();
  await inPage(app.browser, { locale: 'zh-CN', width: 768, height: 1024 }, async (tab) => {
    const { page } = tab;
    await page.goto(courses.origin);
    const calls = recordEduPassCalls(page);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expect.poll(() => calls.filter((call) => call.includes('/interactions/'))).toHaveLength(1);
    // The pupil scans once the screen names the product: its read answered and kept with the return.
    await firstPartyReadKept(page);
    // The classroom tablet's camera opens the card's link in the tab where the product's sign-in waits.
    const before = calls.length;
    await page.goto(`${app.server.url}/badge#${badge}`);
    await expectScreen(page, 'Courses: signed in');
    // The card's sign-in completed the product's: no agreements' read, no consent's, no completion.
    expect(calls.slice(before)).toEqual(['POST /edu/badge/sign-in']);
    expect(tab.errors).toEqual([]);
  });
});

test("a pupil's card still on the school's password: the card's sign-in stays, the pupil chooses, then the product", async () => {
  const { badge, password } = await printedCardOfPupil(false);
  await inPage(app.browser, { locale: 'en', width: 768, height: 1024 }, async (tab) => {
    const { page } = tab;
    await page.goto(courses.origin);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Sign in to Courses');
    await page.goto(`${app.server.url}/badge#${badge}`);
    // Not completed with the card's sign-in (E_17 would answer the completion): the return asks first.
    await page.getByText('Choose a password of your own now', { exact: false }).waitFor();
    await page.waitForLoadState('networkidle');
    await expectCleanScreen(page, 'a card sign-in for a product, the password choice first');
    await mkdir(SCREENSHOTS, { recursive: true });
    await keepScreenshot(page, {
      path: join(SCREENSHOTS, 'card-to-product-password-first.en.768.png'),
      fullPage: true,
    });
    await inputLabelled(tab, 'Current password').fill(password);
    await inputLabelled(tab, 'New password').fill('Kite2026own');
    await inputLabelled(tab, 'Confirm password').fill('Kite2026own');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expectScreen(page, 'Courses: signed in');
    expect(tab.errors).toEqual([]);
  });
});

test('an allowed redirect is followed after SMS sign-in; one not allowed lands on the account with a notice', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(`${app.server.url}/sign-in?redirect=${encodeURIComponent(`${courses.origin}/welcome`)}`);
    await expectScreen(page, 'Sign in to Courses');
    await signInBySms(app, tab, nextPhone());
    await page.waitForURL(`${courses.origin}/welcome`);

    await page.goto(`${app.server.url}/account`);
    await expectScreen(page, 'Profile');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectScreen(page, 'Sign in');
    await page.goto(`${app.server.url}/sign-in?redirect=${encodeURIComponent('https://phish.example.com/')}`);
    await signInBySms(app, tab, nextPhone());
    await expectScreen(page, 'Profile');
    await page.getByText('is not one EduPass may send you back to').waitFor();
    expect(new URL(page.url()).origin).toBe(app.server.url);
  });
});

test('an allowed redirect is followed after a WeChat round trip through the development provider', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(`${app.server.url}/sign-in?redirect=${encodeURIComponent(`${community.origin}/welcome`)}`);
    await expectScreen(page, 'Sign in to Community');
    await newUserByDevProvider(tab, 'wechat', `wx${Date.now().toString(36).slice(-5)}`);
    await page.waitForURL(`${community.origin}/welcome`);
  });
});

test('a third-party app shows the consent screen with the claims it asks for; allowing signs the user in', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(quiz.origin);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Sign in to Quiz');
    await signInBySms(app, tab, nextPhone());
    await expectScreen(page, 'Quiz asks for access');
    await page.getByText('Your phone number', { exact: true }).waitFor();
    await page.getByText('Your nickname').waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expectScreen(page, 'Quiz: signed in');
    expect(tab.errors).toEqual([]);
  });
});

for (const { locale, text } of LOCALES) {
  test(`${locale}: a child waiting for a parent's consent sees what a third-party app gets and what stays private`, async () => {
    const phone = nextPhone();
    await signUp(app.server, phone, PASSWORD, await agreementIdsInEffect(app.server), {
      birth_year_month: bornYearsAgo(9),
    });
    const fill = (key: keyof typeof text) => text[key].replaceAll('{app}', 'Quiz');
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await page.goto(quiz.origin);
      await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
      await expectScreen(page, fill('signIn.titleFor'));
      await signInByCode(app, tab, phone, text);
      await expectScreen(page, fill('grant.title'));
      await page.getByText(fill('grant.withheld')).waitFor();
      // What it gets first (the subject: it asks no minor scope), then what it will not get (the phone number, the name).
      const lists = page.locator('ul.claim-list');
      await expect.poll(() => lists.count()).toBe(2);
      expect(await lists.nth(0).innerText()).toContain(text['claim.sub']);
      expect(await lists.nth(0).innerText()).not.toContain(text['claim.phone_number']);
      expect(await lists.nth(1).innerText()).toContain(text['claim.phone_number']);
      expect(await lists.nth(1).innerText()).toContain(text['claim.name']);
      // No blank line in either list: every claim has its words.
      for (const item of await page.locator('ul.claim-list li').allInnerTexts()) expect(item.trim()).not.toBe('');
      await expectCleanScreen(page, `consent for a child, ${locale}`);
      await mkdir(SCREENSHOTS, { recursive: true });
      await keepScreenshot(page, { path: join(SCREENSHOTS, `consent-child.${locale}.390.png`), fullPage: true });
      await page.getByRole('button', { name: text['grant.allow'] }).click();
      await expectScreen(page, 'Quiz: signed in');
      expect(tab.errors).toEqual([]);
    });
  });
}

test('the agreements gate comes first, then the allowed redirect is followed', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(`${app.server.url}/sign-in`);
    await signInBySms(app, tab, nextPhone());
    await expectScreen(page, 'Profile');
    const now = Date.now();
    await insertAgreement(app.server.app.ctx.db, {
      code: 'terms',
      title: '用户协议 / Terms of Service',
      version: 9,
      url: '/legal/terms?version=9',
      content: 'Version 9 of the terms.',
      effective_at: now - 1000,
      created_at: now,
    });
    await page.goto(`${app.server.url}/sign-in?redirect=${encodeURIComponent(`${courses.origin}/welcome`)}`);
    await expectScreen(page, 'Updated agreements');
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await page.waitForURL(`${courses.origin}/welcome`);
  });
});

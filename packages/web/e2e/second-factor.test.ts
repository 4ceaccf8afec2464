/**
 * Two-step verification in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn
 * domain): a passkey registered and named in the account centre, an authenticator app set up (its
 * codes computed here by the independent RFC 6238 helper), then sign-ins with the password and an
 * app code, with a passkey alone, with the password and the passkey, with a recovery code; and the
 * passkey removed; and a passkey's sign-in where a product waits, which goes straight back to it. The
 * page is opened at `localhost`: WebAuthn takes a domain, not an IP address, as its relying party.
 */

import { signInOperator } from '@edupass/test-kit/accounts';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { steppingClock } from '@edupass/test-kit/rfc6238';
import type { CDPSession, Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  inputLabelled,
  openSecurityRow,
  phoneNumbers,
  signInByPassword,
  signUpByPhone,
} from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, startDemoApp } from './support/demo-app.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';
import { firstPartyReadKept, recordApiCalls } from './support/product-sign-in.ts';

/** The server's clock: moved a step on before each app code, so no code is a replay of the last. */
const { now, freshCode } = steppingClock();

let app: AppUnderTest;
let base: string;
let courses: DemoApp;
beforeAll(async () => {
  [app, courses] = await Promise.all([startApp({}, { now }), startDemoApp('Courses')]);
  base = app.server.url.replace('127.0.0.1', 'localhost');
  app.server.config.publicUrl = base;
  const registered = await registerApp(
    app.server,
    { name: 'Courses', redirect_uris: [`${courses.origin}/callback`] },
    (await signInOperator(app.server)).token,
  );
  await courses.connect(`${base}/oidc`, registered.application.client_id, registered.client_secret);
});
afterAll(async () => {
  await courses?.close();
  await app?.close();
});

const newPhone = phoneNumbers('1570');
const PASSWORD = 'Heron2718q';

/** A platform authenticator that holds discoverable credentials and verifies its user without asking. */
const virtualAuthenticator = async (tab: TestPage) => {
  const cdp: CDPSession = await tab.page.context().newCDPSession(tab.page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
};

const signOut = async (tab: TestPage) => {
  await tab.page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expectScreen(tab.page, 'Sign in');
};

const passwordFirstStep = async (tab: TestPage, phone: string) => {
  const { page } = tab;
  await signInByPassword(tab, phone, PASSWORD);
  await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
};

const intoSecurity = async (tab: TestPage) => {
  await expectScreen(tab.page, 'Profile');
  await tab.page.getByRole('link', { name: 'Sign-in & security' }).click();
  await expectScreen(tab.page, 'Sign-in & security');
  await openSecurityRow(tab.page, 'Two-step verification');
};

/** In the two-step section, the account's first factor: a passkey named "Laptop"; answers the recovery codes shown once. */
const addFirstPasskey = async (section: Locator) => {
  await section.getByLabel('Name of the new passkey').fill('Laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect.poll(() => codes.count()).toBe(10);
  const recovery = await codes.allInnerTexts();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await section.getByText('Laptop', { exact: true }).waitFor();
  return recovery;
};

test('passkey and authenticator app: set up, every way to sign in, recovery code, removal', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  try {
    const authenticator = await virtualAuthenticator(tab);
    await signUpByPhone(app, tab, phone, PASSWORD, base);
    const section = await openSecurityRow(page, 'Two-step verification');

    // A passkey, named; the first factor also shows the recovery codes, once.
    const recovery = await addFirstPasskey(section);
    const credentials = await authenticator.credentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    // The authenticator app: the key from the page, a code computed here.
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await section.locator('code.secret').innerText()).trim();
    await section.getByLabel('Code from the app').fill(freshCode(secret));
    await section.getByRole('button', { name: 'Confirm' }).click();
    await section.getByText('An authenticator app is set up.').waitFor();
    await section
      .getByText('Unused recovery codes left: 9.')
      .or(section.getByText('Unused recovery codes left: 10.'))
      .waitFor();

    // Password, then an app code.
    await signOut(tab);
    await passwordFirstStep(tab, phone);
    await inputLabelled(tab, 'Code').fill(freshCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await intoSecurity(tab);

    // A passkey alone.
    await signOut(tab);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await intoSecurity(tab);

    // Password, then the passkey as the second factor.
    await signOut(tab);
    await passwordFirstStep(tab, phone);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await intoSecurity(tab);

    // Password, then a recovery code; the same code a second time is refused.
    await signOut(tab);
    await passwordFirstStep(tab, phone);
    await inputLabelled(tab, 'Code').fill(String(recovery[0]));
    await page.getByRole('button', { name: 'Verify' }).click();
    await intoSecurity(tab);
    await signOut(tab);
    await passwordFirstStep(tab, phone);
    await inputLabelled(tab, 'Code').fill(String(recovery[0]));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is wrong or was already used. Try the newest code.').waitFor();
    await inputLabelled(tab, 'Code').fill(String(recovery[1]));
    await page.getByRole('button', { name: 'Verify' }).click();
    await intoSecurity(tab);

    // Removal (the sign-in just made is the step-up proof).
    await section.getByRole('button', { name: 'Remove Laptop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove Laptop' }).click();
    await section.getByText('No passkeys yet.').waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 120_000);

test('a passkey sign-in where a product waits, on a classroom tablet in Chinese: one call after the passkey, then the product', async () => {
  const tab = await openPage(app.browser, { locale: 'en', width: 768, height: 1024 });
  const { page } = tab;
  try {
    await virtualAuthenticator(tab);
    await signUpByPhone(app, tab, newPhone(), PASSWORD, base);
    await addFirstPasskey(await openSecurityRow(page, 'Two-step verification'));
    await signOut(tab);
    await page.evaluate(() => localStorage.setItem('edupass.locale', 'zh-CN'));

    const calls = recordApiCalls(page, base);
    await page.goto(courses.origin);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, '登录 Courses');
    await firstPartyReadKept(page);
    const before = calls.length;
    await page.getByRole('button', { name: '用通行密钥登录' }).click();
    await expectScreen(page, 'Courses: signed in');
    // The passkey's challenge, then the sign-in, which completed the product's: no agreements' read,
    // no consent's, no completion.
    expect(calls.slice(before)).toEqual([
      'POST /tiger/v3/web/accounts/passkeys/sign-in/options',
      'POST /tiger/v3/web/accounts/passkeys/sign-in',
    ]);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 120_000);

test('on a phone, in Chinese: the two-step section and the app setup fit the screen', async () => {
  const tab = await openPage(app.browser, { locale: 'en', width: 375, height: 740 });
  const { page } = tab;
  try {
    await signUpByPhone(app, tab, newPhone(), PASSWORD, base);
    await page.getByRole('button', { name: /^Language/ }).click();
    const section = await openSecurityRow(page, '两步验证');
    await section.getByRole('button', { name: '设置验证器应用' }).click();
    const qr = section.getByRole('img', { name: '验证器应用的二维码' });
    await qr.waitFor();
    await section.getByRole('button', { name: '添加通行密钥' }).waitFor();
    const box = await qr.boundingBox();
    expect(box?.width).toBeGreaterThan(100);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 120_000);

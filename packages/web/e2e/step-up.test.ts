/**
 * Step-up in the account centre: with a sign-in older than STEP_UP_SECONDS (the server's clock is
 * moved on), changing the phone asks to confirm it is you; the password given, the code asked for is
 * sent, the change goes through, the old phone gets a notice, and the page offers to sign out
 * everywhere else. An account with only QQ confirms with a round trip to QQ.
 */

import { join } from 'node:path';
import { routes } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { clearCaptchaPolicy, setCaptchaPolicy } from '@edupass/test-kit/server';
import { expect, test } from 'vitest';
import {
  inputLabelled,
  masked,
  newCodeFor,
  newUserByDevProvider,
  openSecurityRow,
  phoneNumbers,
  signUpByPhone,
} from './support/account-steps.ts';
import { withStepUpApp } from './support/app-server.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { solveSlide } from './support/slide.ts';

const { app, later } = withStepUpApp(300);

const newPhone = phoneNumbers('1560');
const input = inputLabelled;
const codeFor = (to: string, previous?: string) => newCodeFor(app, to, previous);

test('changing the phone of an old session asks for the password first, then tells the old phone', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  const next = newPhone();
  const password = 'Heron2718q';
  try {
    await signUpByPhone(app, tab, phone, password);
    await page.getByText(masked(phone)).waitFor();

    // The sign-in is now older than the window: what a stolen token would be.
    later();
    const phoneRegion = await openSecurityRow(page, 'Phone number');
    await input(tab, 'Current phone number').fill(phone);
    await input(tab, 'New phone number').fill(next);
    await phoneRegion.getByRole('button', { name: 'Get code' }).click();
    const stepUp = page.getByRole('region', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    await stepUp.getByText('first confirm it is you. The change then goes ahead.').waitFor();
    // The panel says why; the form shows no second, stale error.
    expect(await phoneRegion.getByText('For your security, confirm it is you first.').count()).toBe(0);
    expect(await app.server.lastCode(next)).toBeUndefined();
    // One code field on screen: the form waits hidden behind the panel, whose own code is to the bound phone.
    await stepUp.getByRole('button', { name: 'Confirm with code' }).waitFor();
    const shownCodeFields = await input(tab, 'Verification code').evaluateAll(
      (fields) => fields.filter((field) => field.checkVisibility()).length,
    );
    expect(shownCodeFields).toBe(1);
    expect(await phoneRegion.getByRole('button', { name: 'Change phone' }).isHidden()).toBe(true);

    await stepUp.getByLabel('Your password', { exact: true }).fill('Wrong2718q');
    await stepUp.getByRole('button', { name: 'Confirm with password' }).click();
    await stepUp.getByText('Your current password is wrong.').waitFor();
    await stepUp.getByLabel('Your password', { exact: true }).fill(password);
    await stepUp.getByRole('button', { name: 'Confirm with password' }).click();
    await stepUp.waitFor({ state: 'detached' });

    // The code the change was waiting for is sent without another tap.
    await phoneRegion.getByRole('button', { name: /Resend in/ }).waitFor();
    await phoneRegion.getByLabel('Verification code').fill(await codeFor(next));
    await page.getByRole('button', { name: 'Change phone' }).click();
    await page.getByText('Phone number changed.').waitFor();
    await page.getByText(`Your phone number is ${masked(next)}.`).waitFor();

    const outbox = (await (await fetch(`${app.server.url}/dev/outbox?to=${phone}`)).json()) as { text: string }[];
    expect(outbox.some((row) => /phone number of your account was changed/.test(row.text))).toBe(true);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText('Every other session is signed out.').waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 90_000);

test('under captcha policy always, the step-up code to the own phone goes through the slide puzzle', async () => {
  const ctx = app.server.app.ctx;
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  const next = newPhone();
  try {
    await signUpByPhone(app, tab, phone, 'Heron2718q');
    await page.getByText(masked(phone)).waitFor();

    await setCaptchaPolicy(ctx, 'edupass', 'step_up', 'always');
    later();
    const phoneRegion = await openSecurityRow(page, 'Phone number');
    await input(tab, 'Current phone number').fill(phone);
    await input(tab, 'New phone number').fill(next);
    await phoneRegion.getByRole('button', { name: 'Get code' }).click();
    const stepUp = page.getByRole('region', { name: 'Confirm it is you' });
    await stepUp.waitFor();

    const signUpCode = await app.server.lastCode(phone);
    await stepUp.getByRole('button', { name: 'Get code' }).click();
    await page.getByRole('dialog').waitFor();
    await solveSlide(page, app.server);
    await stepUp.getByLabel('Verification code').fill(await codeFor(phone, signUpCode));
    await stepUp.getByRole('button', { name: 'Confirm with code' }).click();
    await stepUp.waitFor({ state: 'detached' });
    expect(tab.errors).toEqual([]);
  } finally {
    await clearCaptchaPolicy(ctx, 'edupass', 'step_up');
    await tab.close();
  }
}, 90_000);

test('a QQ-only account adds a phone after 6 minutes: confirmed with QQ in its own window, the code goes out at once', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  const nickname = `qq${Date.now().toString(36).slice(-6)}`;
  try {
    await page.goto(app.server.url);
    await newUserByDevProvider(tab, 'qq', nickname);
    await expectScreen(page, 'Profile');
    await page.getByRole('link', { name: 'Sign-in & security' }).click();
    await expectScreen(page, 'Sign-in & security');

    // Six minutes on: the QQ sign-in no longer counts as a proof.
    later();
    later();
    const phoneRegion = await openSecurityRow(page, 'Phone number');
    await input(tab, 'Phone number').fill(phone);
    await phoneRegion.getByRole('button', { name: 'Get code' }).click();
    const stepUp = page.getByRole('region', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    // The panel says why; no second, stale error under the code button.
    await expect.poll(() => phoneRegion.getByText('confirm it is you first').count()).toBe(0);
    expect(await app.server.lastCode(phone)).toBeUndefined();
    await stepUp.getByRole('button', { name: 'Confirm with QQ' }).waitFor();
    await keepScreenshot(page, {
      path: join(import.meta.dirname, 'screenshots/step-up-qq.en.1280.png'),
      fullPage: true,
    });

    const [provider] = await Promise.all([
      page.waitForEvent('popup'),
      stepUp.getByRole('button', { name: 'Confirm with QQ' }).click(),
    ]);
    await provider.getByRole('button', { name: nickname, exact: true }).click();
    await provider.waitForEvent('close', { timeout: 60_000 });
    await stepUp.waitFor({ state: 'detached' });

    // The code send the proof was asked for goes ahead without another tap.
    const code = await codeFor(phone);
    await phoneRegion.getByRole('button', { name: /Resend in/ }).waitFor();
    await phoneRegion.getByLabel('Verification code').fill(code);
    await phoneRegion.getByRole('button', { name: 'Bind phone' }).click();
    await page.getByText('Phone bound.').waitFor();
    await page.getByText(`Your phone number is ${masked(phone)}.`).waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 90_000);

test('an old session signs the other devices out only once it is confirmed to be you', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  const password = 'Heron2718q';
  try {
    await signUpByPhone(app, tab, phone, password);
    const signedIn = await fetch(`${app.server.url}${routes.loginByPassword.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Auth-Version': '2' },
      body: JSON.stringify({ identity: phone, password, pid: 'edupass' }),
    });
    const other = ((await signedIn.json()) as { auth: { token: { refresh: { token: string } } } }).auth.token.refresh;
    const otherAlive = async () =>
      (
        await fetch(`${app.server.url}${routes.refreshTokens.path}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: other.token }),
        })
      ).status === 200;

    // This device's sign-in is now older than the window, as a stolen token's would be.
    later();
    const devices = await openSecurityRow(page, 'Signed-in devices');
    await devices.getByRole('button', { name: 'Sign out all other devices' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out all other devices' }).click();
    const stepUp = page.getByRole('region', { name: 'Confirm it is you' });
    await stepUp.waitFor();
    await stepUp.getByLabel('Your password', { exact: true }).fill(password);
    await stepUp.getByRole('button', { name: 'Confirm with password' }).click();
    await stepUp.waitFor({ state: 'detached' });
    // The sign-out it was waiting for goes on without another tap.
    await devices.getByText('Every other device is signed out.').waitFor();
    expect(await otherAlive()).toBe(false);
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
});

/**
 * The account centre's security forms not covered by the main flow: password change by phone code
 * (this device stays signed in), phone rebinding, and for an account made from QQ alone, the first
 * password and a first phone.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  inputLabelled,
  masked,
  newCodeFor,
  newUserByDevProvider,
  openSecurityRow,
  phoneNumbers,
  signUpByPhone,
} from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const newPhone = phoneNumbers('1550');
const input = inputLabelled;
const codeFor = (to: string, previous?: string) => newCodeFor(app, to, previous);

test('change the password with a code to the bound phone, then move the account to a new phone', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  const next = newPhone();
  try {
    await signUpByPhone(app, tab, phone, 'Heron2718q');
    await openSecurityRow(page, 'Password');
    await page.getByRole('tab', { name: 'Change with a code to your phone' }).click();
    const form = page.getByRole('tabpanel');
    await form.getByLabel('Phone number').fill(phone);
    const signUpCode = await app.server.lastCode(phone);
    await form.getByRole('button', { name: 'Get code' }).click();
    await form.getByLabel('Verification code').fill(await codeFor(phone, signUpCode));
    await input(tab, 'New password').fill('byphone99');
    await input(tab, 'Confirm password').fill('byphone99');
    await form.getByRole('button', { name: 'Change password' }).click();
    // This device stays signed in; the new password is the one that signs in from now on.
    await page.getByText('Your password is changed. You will need to sign in again on other devices.').waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expectScreen(page, 'Sign in');
    await page.getByRole('tab', { name: 'Password' }).click();
    await page.getByLabel('Phone, username or e-mail').fill(phone);
    await input(tab, 'Password').fill('byphone99');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectScreen(page, 'Profile');

    await page.getByRole('link', { name: 'Sign-in & security' }).click();
    await openSecurityRow(page, 'Phone number');
    await page.getByText(`Your phone number is ${masked(phone)}.`).waitFor();
    await input(tab, 'Current phone number').fill(phone);
    await input(tab, 'New phone number').fill(next);
    await page.getByRole('region', { name: 'Phone number' }).getByRole('button', { name: 'Get code' }).click();
    await page
      .getByRole('region', { name: 'Phone number' })
      .getByLabel('Verification code')
      .fill(await codeFor(next));
    await page.getByRole('button', { name: 'Change phone' }).click();
    await page.getByText('Phone number changed.').waitFor();
    await page.getByText(`Your phone number is ${masked(next)}.`).waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 90_000);

test('an account made from QQ alone sets its first password and binds its first phone', async () => {
  const tab = await openPage(app.browser, { locale: 'en' });
  const { page } = tab;
  const phone = newPhone();
  try {
    await page.goto(app.server.url);
    await newUserByDevProvider(tab, 'qq', `solo${Date.now().toString(36).slice(-5)}`);
    await expectScreen(page, 'Profile');
    await page.getByRole('link', { name: 'Sign-in & security' }).click();
    await openSecurityRow(page, 'Password');
    await page.getByText('Your account has no password yet.').waitFor();

    await input(tab, 'New password').fill('first123');
    await input(tab, 'Confirm password').fill('first124');
    await page.getByText('The two passwords are not the same.').first().waitFor();
    await input(tab, 'Confirm password').fill('first123');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password set.').waitFor();
    // Without a phone the change by the current password is the only way: no tab for a code to a phone.
    await input(tab, 'Current password').waitFor();
    expect(await page.getByRole('tab', { name: 'Change with a code to your phone' }).count()).toBe(0);

    await openSecurityRow(page, 'Phone number');
    await page.getByText('No phone number is bound yet.').waitFor();
    await input(tab, 'Phone number').fill(phone);
    await page.getByRole('region', { name: 'Phone number' }).getByRole('button', { name: 'Get code' }).click();
    await page
      .getByRole('region', { name: 'Phone number' })
      .getByLabel('Verification code')
      .fill(await codeFor(phone));
    await page.getByRole('button', { name: 'Bind phone' }).click();
    await page.getByText('Phone bound.').waitFor();
    await page.getByText(`Your phone number is ${masked(phone)}.`).waitFor();
    expect(tab.errors).toEqual([]);
  } finally {
    await tab.close();
  }
}, 90_000);

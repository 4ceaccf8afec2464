/**
 * The sign-in hijack, in Chromium with two browsers (contexts): an attacker starts a sign-in at an
 * application and sends the link of EduPass's sign-in screen to a victim who is signed in to
 * EduPass. The victim's browser must not complete it (the server refuses an interaction the browser
 * did not start, and the screen says so), and the attacker's browser, resuming the authorization,
 * is not signed in to the application as the victim. The browser that started a sign-in completes it.
 */
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { phoneNumbers, signInBySms } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, startDemoApp } from './support/demo-app.ts';
import { expectScreen, inPage } from './support/pages.ts';

let app: AppUnderTest;
let courses: DemoApp;
const nextPhone = phoneNumbers('1572');

beforeAll(async () => {
  [app, courses] = await Promise.all([startApp(), startDemoApp('Courses')]);
  const registered = await registerApp(app.server, {
    name: 'Courses',
    redirect_uris: [`${courses.origin}/callback`],
    post_logout_redirect_uris: [`${courses.origin}/`],
  });
  await courses.connect(`${app.server.url}/oidc`, registered.application.client_id, registered.client_secret);
});

afterAll(async () => {
  await courses?.close();
  await app?.close();
});

test("a signed-in victim opening an attacker's sign-in link completes nothing; the attacker is not signed in", async () => {
  await inPage(app.browser, { locale: 'en' }, async (attacker) => {
    await attacker.page.goto(courses.origin);
    await attacker.page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(attacker.page, 'Sign in to Courses');
    const link = attacker.page.url();
    const uid = new URL(link).searchParams.get('interaction');
    expect(uid).toBeTruthy();

    await inPage(app.browser, { locale: 'en' }, async (victim) => {
      await victim.page.goto(`${app.server.url}/sign-in`);
      await signInBySms(app, victim, nextPhone());
      await expectScreen(victim.page, 'Profile');
      await victim.page.goto(link);
      await victim.page.getByText('was started in another browser').waitFor();
      expect(new URL(victim.page.url()).origin).toBe(app.server.url);
    });

    // The attacker resumes the authorization: no code for anyone, the sign-in screen again.
    await attacker.page.goto(`${app.server.url}/oidc/auth/${uid}`);
    await expectScreen(attacker.page, 'Sign in to Courses');
    expect(new URL(attacker.page.url()).origin).toBe(app.server.url);
    await attacker.page.goto(courses.origin);
    await expectScreen(attacker.page, 'Courses: signed out');
  });
});

test('the browser that started the sign-in completes it', async () => {
  await inPage(app.browser, { locale: 'en' }, async (tab) => {
    const { page } = tab;
    await page.goto(`${app.server.url}/sign-in`);
    const phone = nextPhone();
    await signInBySms(app, tab, phone);
    await expectScreen(page, 'Profile');
    // Signed in already: the first-party application signs in without a question, naming itself.
    await page.goto(courses.origin);
    await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
    await expectScreen(page, 'Courses: signed in');
    await page.getByText(`Signed in as ${phone}`).waitFor();
    expect(tab.errors).toEqual([]);
  });
});

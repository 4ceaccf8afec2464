/**
 * The idle time-out on the teaching screens, in Chromium on the real server with the shipped 15
 * minutes, in both languages: a teacher's class page warns two minutes before the time-out (a dialog
 * with a 44 px "Stay signed in", axe-clean); staying is a call the server counts and keeps the session;
 * left alone, the page signs out itself, the sign-in screen says why, and signing in again returns to
 * the class page. The page's clock is under the test's hand (the server's runs as it does).
 */
import { routes } from '@edupass/protocol';
import { client } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { loadConfig } from '@edupass/test-kit/server';
import { expect, test } from 'vitest';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { acceptAgreements, checkScreen, expectTappable, say, signInWithPassword } from './support/story-steps.ts';

const { staffIdleMinutes } = loadConfig({});
const app = withApp({ staffIdleMinutes });

for (const { locale, text } of LOCALES) {
  test(`a teacher's class page warns before the idle time-out, stays when asked, signs out when not (${locale})`, async () => {
    const { server } = app;
    const steps = eduSteps(server, client(server.url));
    const schoolId = await steps.addSchool(`Idle ${locale}`);
    const teacher = await steps.approvedTeacher(schoolId);
    const className = locale === 'en' ? 'Class 3B' : '三年级二班';
    const classId = await steps.createClass(teacher, schoolId, className);

    await inPage(app.browser, { locale }, async (tab) => {
      const { page } = tab;
      await page.clock.install();
      await page.goto(server.url);
      await signInWithPassword(tab, text, teacher.phone, teacher.password);
      await acceptAgreements(page, text);
      await page.goto(`${server.url}/teach/classes/${classId}`);
      await expectScreen(page, className);
      await page.waitForLoadState('networkidle');

      const warning = page.getByRole('alertdialog', { name: text['idle.title'] });
      const stay = warning.getByRole('button', { name: text['idle.stay'] });
      await page.clock.fastForward('12:00');
      expect(await warning.count()).toBe(0);
      await page.clock.fastForward('01:30');
      await warning.waitFor();
      await expectTappable(stay, 'Stay signed in');
      await checkScreen(page, `idle-warning.${locale}`);

      // Staying is a call the server counts: the warning goes, and comes back only 13 minutes later.
      const counted = page.waitForResponse(
        (response) => new URL(response.url()).pathname === routes.eduMemberships.path,
      );
      await stay.click();
      expect((await counted).status()).toBe(200);
      await warning.waitFor({ state: 'detached' });
      await page.clock.fastForward('12:00');
      expect(await warning.count()).toBe(0);
      await expectScreen(page, className);

      // Left alone: signed out at the time-out, the sign-in screen says why.
      await page.clock.fastForward('04:00');
      await page.getByText(say(text, 'signIn.idleSignedOut', { minutes: staffIdleMinutes })).waitFor();
      await expectScreen(page, text['signIn.title']);
      await checkScreen(page, `idle-signed-out.${locale}`);

      // Signing in again returns to the class page.
      await signInWithPassword(tab, text, teacher.phone, teacher.password);
      await expectScreen(page, className);
      expect(new URL(page.url()).pathname).toBe(`/teach/classes/${classId}`);
    });
  });
}

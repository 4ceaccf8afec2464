import { routes } from '@edupass/protocol';
import { client, signUp } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { expect, test } from 'vitest';
import { inputLabelled, phoneNumbers } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { askToTeach, openClass, teacherOpensTeaching } from './support/first-week-steps.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { acceptAgreements, checkScreen, expectTappable, say, signInWithPassword } from './support/story-steps.ts';

const app = withApp();

const newPhone = phoneNumbers('1397');
const TEACHER_PASSWORD = 'Lantern5821';

const CASES = LOCALES.flatMap(({ locale, text }) => VIEWPORTS.map((viewport) => ({ locale, text, viewport })));

test.each(CASES)(
  'a new teacher finds the school, asks to teach, is approved by the school admin and opens a class ($locale, $viewport.name)',
  async ({ locale, text, viewport }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const tag = `${Date.now() % 100000}${viewport.width}`;
    const schoolName = `星光第${tag}小学`;
    const admin = await signUp(server);
    const { id: schoolId } = steps.ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name: schoolName, admin_user_id: admin.userId },
        { token: await steps.operatorToken() },
      ),
    );
    const teacher = { phone: newPhone(), password: TEACHER_PASSWORD };
    const colleague = await signUp(server);
    const shot = (screen: string) => `way-in-${screen}.${locale}.${viewport.name}`;
    const pageOptions = { locale, width: viewport.width, height: viewport.height };

    // The new teacher signs up, finds the school by a part of its name and asks: "waiting for approval".
    await inPage(app.browser, pageOptions, (tab) =>
      askToTeach(app, tab, text, teacher, { name: schoolName, search: `${tag}小` }, shot),
    );

    // The school admin approves on the school's view, and adds a colleague by phone number.
    await inPage(app.browser, pageOptions, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      await signInWithPassword(tab, text, admin.phone, admin.password);
      await acceptAgreements(page, text);
      await page.getByRole('link', { name: text['account.teaching'] }).click();
      await expectScreen(page, text['teach.title']);
      await page.getByRole('link', { name: text['teach.schoolOverview'] }).click();
      await expectScreen(page, schoolName);
      expect(new URL(page.url()).pathname).toBe(`/teach/schools/${schoolId}`);
      const approve = page.getByRole('button', { name: new RegExp(`^${text['teach.approve']} `) });
      await expectTappable(approve, 'approve');
      await expectTappable(page.getByRole('button', { name: new RegExp(`^${text['teach.refuse']} `) }), 'refuse');
      await checkScreen(page, shot('admin-waiting'));
      await approve.click();
      await page.getByText(new RegExp(say(text, 'teach.teacherApproved', { name: '.+' }))).waitFor();
      await inputLabelled(tab, text['teach.teacherPhone']).fill(colleague.phone);
      await expectTappable(inputLabelled(tab, text['teach.teacherPhone']), 'the phone box');
      const add = page.getByRole('button', { name: text['teach.addTeacherSubmit'] });
      await expectTappable(add, 'add teacher');
      await add.click();
      await page.getByText(say(text, 'teach.teacherAdded', { phone: colleague.phone })).waitFor();
      // A number without an account: the field says so.
      await inputLabelled(tab, text['teach.teacherPhone']).fill('13900000000');
      await add.click();
      await page.getByText(text['teach.phoneNoAccount']).waitFor();
      await checkScreen(page, shot('admin-added'));
    });

    // The teacher now sees the school approved and opens a class there.
    await inPage(app.browser, pageOptions, async (tab) => {
      const { page } = tab;
      await teacherOpensTeaching(app, tab, text, teacher);
      const row = page.locator('.teach-row', { hasText: schoolName }).first();
      await row.waitFor();
      expect(await row.getByText(text['teach.pending']).count()).toBe(0);
      await openClass(tab, text, `三年级${viewport.width}班`);
      await checkScreen(page, shot('class-opened'));
      expect(tab.errors).toEqual([]);
    });
  },
);

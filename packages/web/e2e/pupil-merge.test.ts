/**
 * One pupil, one account, in Chromium (zh-CN and en, classroom tablet 768×1024): a school admin's
 * class page names each class of the move list with its grade and school year (two 三年级二班 of
 * different years told apart), and the school's page lists a pupil with two accounts, each with its
 * classes; the admin keeps one, merges the other into it after a confirmation, and the server has one
 * account left in both classes. Screenshots under e2e/screenshots/.
 */
import { type ClassDetail, routes } from '@edupass/protocol';
import { client, signAgreementsInEffect, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { expect, test } from 'vitest';
import { openSignedIn } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { checkScreen, expectTappable, say } from './support/story-steps.ts';

const app = withApp();
const WAIT = { timeout: 60_000 };
const TABLET = { width: 768, height: 1024 };

test.each(LOCALES)(
  'a class chooser shows grade and year, and a school admin merges a pupil’s two accounts ($locale)',
  async ({ locale, text }) => {
    const { server } = app;
    const call = client(server.url);
    const edu = eduSteps(server, call);
    const admin = await signUp(server);
    await signAgreementsInEffect(server, admin.token);
    const { id: schoolId } = edu.ok<{ id: number }>(
      await call(
        'POST',
        routes.addSchool.path,
        { name: `合并 ${locale}`, admin_user_id: admin.userId },
        { token: await edu.operatorToken() },
      ),
    );
    const classA = await edu.createClass(admin, schoolId, '三年级一班');
    const classB = await edu.createClass(admin, schoolId, '三年级二班');
    await edu.createClass(admin, schoolId, '三年级二班', '2025-2026');
    const [kept] = await edu.createPupils(admin, classA, ['李华']);
    const [twin] = await edu.createPupils(admin, classB, ['李华']);
    if (!kept || !twin) throw new Error('no pupils');
    const label = (name: string, year: string) => say(text, 'teach.classLabel', { name, grade: text['grade.3'], year });

    await inPage(app.browser, { locale, ...TABLET }, async (tab) => {
      const { page } = tab;
      await openSignedIn(app, tab, admin, `/teach/classes/${classA}`);
      await expectScreen(page, '三年级一班');
      const moveList = page.getByLabel(text['teach.moveTo']);
      await moveList.waitFor(WAIT);
      expect((await moveList.locator('option').allTextContents()).sort()).toEqual(
        [label('三年级二班', '2026-2027'), label('三年级二班', '2025-2026')].sort(),
      );
      await checkScreen(page, `pupil-merge-move-list.${locale}.tablet`);

      await page.goto(`${server.url}/teach/schools/${schoolId}`);
      await page.getByRole('heading', { name: text['teach.mergeTitle'] }).waitFor(WAIT);
      const group = page.getByRole('group', { name: say(text, 'teach.mergeWhichStays', { name: '李华' }) });
      await group.waitFor(WAIT);
      // Each account with its class, grade and year; the older account is the one offered to keep.
      await page.getByText(label('三年级二班', '2026-2027')).first().waitFor(WAIT);
      const keepFirst = group.getByRole('radio').first();
      expect(await keepFirst.isChecked()).toBe(true);
      const mergeButton = page.getByRole('button', {
        name: say(text, 'teach.mergeInto', { end: twin.user_id, keep: kept.user_id }),
      });
      await expectTappable(mergeButton, 'the merge button');
      await checkScreen(page, `pupil-merge-school.${locale}.tablet`);
      await mergeButton.click();
      const dialog = page.getByRole('alertdialog');
      await dialog
        .getByText(say(text, 'teach.mergeConfirmBody', { keep: kept.user_id, end: twin.user_id }))
        .waitFor(WAIT);
      await dialog.getByRole('button', { name: text['teach.merge'], exact: true }).click();
      await page
        .getByText(say(text, 'teach.mergeDone', { name: '李华', keep: kept.user_id, end: twin.user_id }))
        .waitFor(WAIT);
      await page.getByText(text['teach.mergeNone']).waitFor(WAIT);
      await checkScreen(page, `pupil-merge-done.${locale}.tablet`);
    });

    for (const classId of [classA, classB]) {
      const detail = edu.ok<ClassDetail>(
        await call('GET', pathOf(routes.getClass.path, { id: classId }), undefined, { token: admin.token }),
      );
      expect(detail.members.filter((m) => m.role === 'pupil').map((m) => m.user_id)).toEqual([kept.user_id]);
    }
  },
);

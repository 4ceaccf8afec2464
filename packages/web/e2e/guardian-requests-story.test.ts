/**
 * Guardianship the family controls, in Chromium at phone width, in zh-CN and en, with three browser
 * contexts: a 9-year-old whose mother consented, the mother, and a stranger the child read the guardian
 * code out to. The stranger links and sees the waiting screen and nothing of the child; the mother sees
 * the request (the stranger's masked phone and relation) on her phone and says no: the stranger is told
 * the family said no. The child gives a new code; the mother says yes this time: the stranger sees the
 * child, and the child's account centre shows who was added. The new screens pass 44 px and axe.
 */
import { guardianLinkTable, guardianTable } from '@edupass/protocol';
import { agreementIdsInEffect, PASSWORD, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { bornYearsAgo } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { describe, expect, test } from 'vitest';
import { masked, openSignedIn, phoneNumbers } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, shown } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const app = withApp();
const newPhone = phoneNumbers('1597');
const WAIT = { timeout: 60_000 };

describe.each(LOCALES)('$locale, phone', ({ locale, text }) => {
  test('the stranger waits, the mother refuses then approves on her phone, the child sees who was added', async () => {
    const call = client(app.server.url);
    const agreed = await agreementIdsInEffect(app.server);
    const person = (years: number) =>
      signUp(app.server, newPhone(), PASSWORD, agreed, { birth_year_month: bornYearsAgo(years) });
    const [child, mother, stranger] = [await person(9), await person(36), await person(41)];
    // The mother consented (guardian-story.test.ts walks that page): she is the child's guardian.
    const { link } = (
      await call<{ link: string }>('POST', guardianTable.openConsentLink.path, {}, { token: child.token })
    ).body;
    const consented = await call(
      'POST',
      guardianTable.decideConsent.path,
      { link, decision: 'consent', relation: 'mother' },
      { token: mother.token },
    );
    expect(consented.status).toBe(204);

    const tabOptions = { locale: locale as 'zh-CN' | 'en', ...PHONE };
    const childTab = await openPage(app.browser, tabOptions);
    const motherTab = await openPage(app.browser, tabOptions);
    const strangerTab = await openPage(app.browser, tabOptions);
    const [kid, mum, them] = [childTab.page, motherTab.page, strangerTab.page];
    try {
      /** The child makes a guardian code in the account centre and reads it out. */
      const childMakesCode = async () => {
        await openSignedIn(app, childTab, child, '/account');
        const make = kid.getByRole('button', { name: text['family.makeCode'] });
        await shown(kid, make, WAIT.timeout);
        await make.click();
        return (await kid.getByTestId('guardian-link-code').textContent(WAIT))?.trim() ?? '';
      };
      /** The stranger types the code in their guardian area, as "other guardian". */
      const strangerLinks = async (code: string) => {
        await openSignedIn(app, strangerTab, stranger, '/guardian');
        await expectScreen(them, text['guardian.title']);
        await them.getByTestId('guardian-code').fill(code);
        await them.getByLabel(text['guardianConsent.relation']).selectOption('other');
        await them.getByRole('button', { name: text['guardian.link'], exact: true }).click();
      };

      // The stranger spends the code: a waiting screen, and nothing of the child.
      await strangerLinks(await childMakesCode());
      await them.getByTestId('guardian-waiting').waitFor(WAIT);
      await them.getByRole('heading', { name: text['guardian.waitingTitle'] }).waitFor(WAIT);
      expect(await them.getByText(text['guardian.none']).isVisible()).toBe(true);
      await expectCleanScreen(them, '/guardian (waiting for the family)');
      await keepScreenshot(them, {
        path: `${import.meta.dirname}/screenshots/guardian-waiting.${locale}.png`,
        fullPage: true,
      });
      const record = await call(
        'GET',
        guardianLinkTable.childRecord.path.replace(':id', String(child.userId)),
        undefined,
        { token: stranger.token },
      );
      expect(record.status).toBe(404);

      // The mother sees who asks on her phone, and says no.
      await openSignedIn(app, motherTab, mother, '/guardian');
      await expectScreen(mum, text['guardian.title']);
      const request = mum.getByTestId('guardian-request');
      await request.waitFor(WAIT);
      expect(await request.textContent()).toContain(masked(stranger.phone));
      expect(await request.textContent()).toContain(text['guardian.relation.other']);
      await expectCleanScreen(mum, '/guardian (a request to decide)');
      await keepScreenshot(mum, {
        path: `${import.meta.dirname}/screenshots/guardian-request.${locale}.png`,
        fullPage: true,
      });
      await request.getByRole('button', { name: text['guardian.refuse'], exact: true }).click();
      const refusing = mum.getByRole('alertdialog');
      await refusing.getByRole('button', { name: text['guardian.refuse'], exact: true }).click(WAIT);
      await mum.getByText(text['guardian.refused']).waitFor(WAIT);
      await request.waitFor({ state: 'detached', ...WAIT });

      // The stranger is told the family said no, and still sees nothing.
      await them.reload();
      await them.getByTestId('guardian-refused').waitFor(WAIT);
      expect(await them.getByText(text['guardian.none']).isVisible()).toBe(true);

      // The child gives a new code; this time the mother says yes.
      await strangerLinks(await childMakesCode());
      await them.getByTestId('guardian-waiting').waitFor(WAIT);
      await mum.reload();
      await mum.getByTestId('guardian-request').waitFor(WAIT);
      await mum.getByRole('button', { name: text['guardian.approve'], exact: true }).click();
      const added = text['guardian.approved'].split('{child}')[0]?.trim() ?? '';
      await mum.getByRole('status').filter({ hasText: added }).first().waitFor(WAIT);

      // The stranger now sees the child; the child sees who was added, with the relation and the day.
      await them.reload();
      await expectScreen(them, text['guardian.title']);
      await them.getByRole('heading', { name: text['guardian.detailsTitle'], exact: true }).waitFor(WAIT);
      await kid.reload();
      const list = kid.getByTestId('linked-guardians');
      await list.waitFor(WAIT);
      await expect.poll(async () => await list.locator('li').count(), WAIT).toBe(2);
      expect(await list.textContent()).toContain(text['guardian.relation.other']);
      expect(await list.textContent()).toContain(text['guardian.relation.mother']);
      await expectCleanScreen(kid, '/account (who was added)');
      await keepScreenshot(kid, {
        path: `${import.meta.dirname}/screenshots/child-guardians.${locale}.png`,
        fullPage: true,
      });
    } finally {
      await Promise.all([childTab.close(), motherTab.close(), strangerTab.close()]);
    }
  }, 240_000);
});

/**
 * The guardian's consent page at phone width (390×844), in zh-CN and en, when a product passes what it
 * receives to others (`discloses_to_others`): the page names it in its sentence, in view before the
 * guardian decides, and the other products are not named. The screen is kept for the gallery.
 */
import { guardianTable, routes } from '@edupass/protocol';
import { PASSWORD, signInOperator, signUp, signUpAgreed } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { bornYearsAgo } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { beforeAll, describe, expect, test } from 'vitest';
import { phoneNumbers, signInBySms, switchLocale } from './support/account-steps.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage, shown } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

const app = withApp({
  realname: { provider: 'dev', accessKeyId: '', accessKeySecret: '', endpoint: '', region: '', timeoutMs: 5_000 },
});
const newPhone = phoneNumbers('1587');
const WAIT = { timeout: 60_000 };
const EN = LOCALES[1].text;

beforeAll(async () => {
  const call = client(app.server.url);
  const operator = (await signInOperator(app.server, newPhone(), ['system'])).token;
  await registerApp(app.server, { name: 'Quiz Corner', redirect_uris: ['http://127.0.0.1:7221/cb'] }, operator);
  const sharing = await registerApp(
    app.server,
    { name: 'Study Ads', redirect_uris: ['http://127.0.0.1:7222/cb'], first_party: false },
    operator,
  );
  const marked = await call(
    'POST',
    routes.updateApplication.path.replace(':client_id', sharing.application.client_id),
    { discloses_to_others: true },
    { token: operator },
  );
  expect(marked.status).toBe(200);
});

describe.each(LOCALES)('$locale, phone', ({ locale, text }) => {
  test('the consent page names the product that discloses to others, in view, before the decision', async () => {
    const call = client(app.server.url);
    const guardianPhone = newPhone();
    await signUpAgreed(app.server, guardianPhone);
    const child = await signUp(app.server, newPhone(), PASSWORD, [-1], { birth_year_month: bornYearsAgo(9) });
    const { link } = (
      await call<{ link: string }>('POST', guardianTable.openConsentLink.path, {}, { token: child.token })
    ).body;
    const tab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const { page } = tab;
    try {
      await page.goto(`${app.server.url}/consent#${link}`);
      await page
        .getByRole('link', { name: EN['guardianConsent.signIn'] })
        .or(page.getByRole('button', { name: EN['guardianConsent.signIn'] }))
        .click(WAIT);
      await signInBySms(app, tab, guardianPhone);
      await expectScreen(page, EN['guardianConsent.title']);
      await switchLocale(page, locale);
      await expectScreen(page, text['guardianConsent.title']);
      const note = page.locator('.consent-disclosure');
      await shown(page, note, WAIT.timeout);
      const sentence = await note.innerText();
      const [before = '', after = ''] = text['guardianConsent.disclosure'].split('{apps}');
      expect(sentence.startsWith(before)).toBe(true);
      expect(sentence).toContain(after.trim().slice(0, 20));
      expect(sentence).toContain('Study Ads');
      expect(sentence).not.toContain('Quiz Corner');
      await note.scrollIntoViewIfNeeded();
      const box = await note.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(PHONE.width);
      await expectCleanScreen(page, '/consent (a product disclosing to others)');
      await keepScreenshot(page, {
        path: `${import.meta.dirname}/screenshots/consent-disclosing.${locale}.${PHONE.width}.png`,
        fullPage: true,
      });
    } finally {
      await tab.close();
    }
  }, 180_000);
});

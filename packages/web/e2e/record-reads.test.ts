/**
 * "Who read my record" in the account centre, in both languages at phone width: an operator opens an
 * adult's account page, and the adult sees the read on their privacy page (who, what, why); as a
 * guardian, the same person opens their child's list in the family part and sees the operator's read
 * of the child with the reason given.
 */
import { DEFAULT_NICKNAME, type GuardianChildren, isDefaultNickname, routes } from '@edupass/protocol';
import { PASSWORD, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findUserByPhone } from '../../server/src/store/account/users.ts';
import { passwordSignInAnswer, phoneNumbers, signUpByPhone, switchLocale } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { openPage } from './support/pages.ts';

let app: AppUnderTest;
let operatorToken: string;
beforeAll(async () => {
  app = await startApp();
  operatorToken = (await signInOperator(app.server)).token;
});
afterAll(async () => {
  await app?.close();
});

const newPhone = phoneNumbers('1574');
const phone = VIEWPORTS.find((v) => v.name === 'phone') ?? { width: 390, height: 844 };

const api = async <T>(method: string, path: string, token: string, body?: unknown) => {
  const answer = await fetch(`${app.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(answer.status, `${method} ${path}`).toBeLessThan(300);
  return (answer.status === 204 ? undefined : await answer.json()) as T;
};

/** A ten-year-old's account whose guardian (`guardianToken`) consented by the link. */
const childOf = async (guardianToken: string) => {
  const today = new Date();
  const child = await signUp(app.server, undefined, PASSWORD, [-1], {
    birth_year_month: `${today.getUTCFullYear() - 11}-${String(today.getUTCMonth() + 1).padStart(2, '0')}`,
  });
  const { link } = await api<{ link: string }>('POST', routes.openConsentLink.path, child.token, {});
  await api('POST', routes.consentRequest.path, guardianToken, { link });
  await api('POST', routes.decideConsent.path, guardianToken, { link, decision: 'consent', relation: 'father' });
  return child;
};

const fill = (words: string, params: Record<string, string>) =>
  words.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test('phone: the adult sees the operator’s read of their record; as a guardian, the child’s with its reason', async () => {
    const tab = await openPage(app.browser, { locale: 'en', width: phone.width, height: phone.height });
    const { page } = tab;
    const number = newPhone();
    try {
      await signUpByPhone(app, tab, number, PASSWORD);
      await switchLocale(page, locale);
      const userId = Number((await findUserByPhone(app.server.app.ctx.db, number))?.id);
      await api('GET', routes.getUser.path.replace(':id', String(userId)), operatorToken);

      await page.goto(`${app.server.url}/account/privacy`);
      const section = page.getByRole('region', { name: text['recordReads.title'] });
      const read = section.getByTestId('record-read');
      await read.first().waitFor();
      expect(await read.count()).toBe(1);
      const said = await read.first().innerText();
      expect(said).toContain(text['recordReads.role.operator']);
      expect(said).toContain(fill(text['recordReads.why'], { why: text['recordReads.purpose.user_detail'] }));
      expect(said).toContain(text['recordReads.field.phone']);
      expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, {
        path: `${import.meta.dirname}/screenshots/record-reads.${locale}.png`,
        fullPage: true,
      });

      // The same person as a guardian: an operator reads the child's record, with a reason.
      const signedIn = (await (await passwordSignInAnswer(app, number, PASSWORD)).json()) as {
        auth: { token: { access: { token: string } } };
      };
      const guardianToken = signedIn.auth.token.access.token;
      const child = await childOf(guardianToken);
      const reason = locale === 'en' ? 'The parent called to check the account' : '家长来电核实账号';
      await api(
        'GET',
        `${routes.getUser.path.replace(':id', String(child.userId))}?reason=${encodeURIComponent(reason)}`,
        operatorToken,
      );
      const { children } = await api<GuardianChildren>('GET', routes.guardianChildren.path, guardianToken);
      // The drawn default nickname is shown in the page's language.
      const nickname = children.find((c) => c.id === child.userId)?.nickname ?? '';
      const name = isDefaultNickname(nickname)
        ? fill(text['nickname.default'], { number: nickname.slice(DEFAULT_NICKNAME.prefix.length) })
        : nickname || `#${child.userId}`;

      // The guardian area shows the child's reads; the guardian's own look at the child is one of them.
      await page.goto(`${app.server.url}/guardian`);
      const childList = page.getByRole('list', { name: fill(text['recordReads.childTitle'], { name }) });
      const operatorRead = childList.getByTestId('record-read').filter({ hasText: reason });
      await operatorRead.waitFor();
      const childRead = await operatorRead.innerText();
      expect(childRead).toContain(fill(text['recordReads.reason'], { reason }));
      expect(childRead).toContain(text['recordReads.role.operator']);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

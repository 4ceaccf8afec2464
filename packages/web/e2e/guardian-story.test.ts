/**
 * The story of issue 31 in Chromium, in zh-CN and en at phone width: a 10-year-old signs up and is
 * pending (a token from the OpenID Connect flow lacks the community scope); a guardian in a second
 * browser signs in by SMS code and consents; the next token carries the scope. The guardian sets 30
 * minutes in the guardian area: the next ID token carries 30 and a signed `minor.settings.changed`
 * webhook arrives. Withdrawal freezes the child's sessions at once; refusal deletes a second child.
 */
import { buffer } from 'node:stream/consumers';
import { COMMUNITY_SCOPE, guardianTable, routes } from '@edupass/protocol';
import { signInOperator, signUp, signUpAgreed } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { bornYearsAgo, eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { signInAtApp } from '@edupass/test-kit/oidc-flow';
import { startWebhookReceiver, verifiedEvents, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  answerBirthMonth,
  passwordSignInAnswer,
  phoneNumbers,
  signInBySms,
  signUpByPhone,
  switchLocale,
} from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen } from './support/touch.ts';

const CALLBACK = 'http://127.0.0.1:7104/callback';
const PASSWORD = 'Plover3141q';
const PHONE = VIEWPORTS.find((v) => v.name === 'phone') ?? { width: 390, height: 844 };
const newPhone = phoneNumbers('1574');
const WAIT = { timeout: 60_000 };
const EN = LOCALES[1].text;

let app: AppUnderTest;
let receiver: WebhookReceiver;
let secret: string;
let rp: { id: string; secret: string };
beforeAll(async () => {
  app = await startApp({
    webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
  });
  receiver = await startWebhookReceiver();
  const call = client(app.server.url);
  const operator = (await signInOperator(app.server)).token;
  secret = (await eduSteps(app.server, call).webhookEndpoint(receiver.url, ['minor.settings.changed'])).secret;
  const registered = await registerApp(app.server, { name: 'Kids community', redirect_uris: [CALLBACK] }, operator);
  rp = { id: registered.application.client_id, secret: String(registered.client_secret) };
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

/** A fresh sign-in of the child over HTTP, then at the application: its scopes and ID token. */
const childAtApp = async (phone: string) => {
  const answer = await passwordSignInAnswer(app, phone, PASSWORD);
  expect(answer.status).toBe(200);
  const token = ((await answer.json()) as { auth: { token: { access: { token: string } } } }).auth.token.access.token;
  return { token, ...(await signInAtApp(app.server, rp, CALLBACK, token, `openid minor ${COMMUNITY_SCOPE}`)) };
};

describe.each(LOCALES)('$locale, phone', ({ locale, text }) => {
  test('pending child, consent by SMS, 30 minutes carried, withdrawal freezes, refusal deletes', async () => {
    const [year, month] = bornYearsAgo(10).split('-') as [string, string];
    const childTab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const guardianTab = await openPage(app.browser, { locale: 'en', ...PHONE });
    const childPhone = newPhone();
    const guardianPhone = newPhone();
    try {
      // The child signs up with the age question answered: pending, so no community scope.
      await signUpByPhone(app, childTab, childPhone, PASSWORD, app.server.url, { year, month });
      expect((await childAtApp(childPhone)).scopes).not.toContain(COMMUNITY_SCOPE);
      const child = childTab.page;
      await switchLocale(child, locale);
      await child.goto(`${app.server.url}/account`);
      await child.getByRole('button', { name: text['family.makeLink'] }).click(WAIT);
      const link = await child.getByTestId('consent-link').inputValue(WAIT);
      expect(link).toContain('/consent#');

      // The guardian, in a second browser, opens the link and signs in with an SMS code.
      await signUpAgreed(app.server, guardianPhone);
      const guardian = guardianTab.page;
      // A chat app cut the address at its '#': the page asks for the link, and the pasted message works.
      await guardian.goto(link.slice(0, link.indexOf('#')));
      await expectScreen(guardian, EN['guardianConsent.pasteTitle']);
      await guardian
        .getByRole('textbox', { name: EN['guardianConsent.pasteLabel'], exact: true })
        .fill(`Please agree: ${link} thanks`);
      await guardian.getByRole('button', { name: EN['guardianConsent.pasteGo'] }).click(WAIT);
      await guardian.getByRole('button', { name: EN['guardianConsent.signIn'] }).click(WAIT);
      await signInBySms(app, guardianTab, guardianPhone);
      // Signed up without the age question: only an adult decides, so the page asks the birth month first.
      await expectScreen(guardian, EN['guardianConsent.ageTitle']);
      await switchLocale(guardian, locale);
      await expectScreen(guardian, text['guardianConsent.ageTitle']);
      await expectCleanScreen(guardian, '/consent (the birth-month question)');
      await answerBirthMonth(guardian, { year: '1988', month: '03', zh: locale === 'zh-CN' });
      await guardian.getByRole('button', { name: text['guardianConsent.ageSave'] }).click();
      await expectScreen(guardian, text['guardianConsent.title']);
      await guardian.getByLabel(text['guardianConsent.relation']).selectOption('mother');
      await guardian.getByRole('button', { name: text['guardianConsent.agree'] }).click();
      await expectScreen(guardian, text['guardianConsent.doneTitle']);
      const granted = await childAtApp(childPhone);
      expect(granted.scopes).toContain(COMMUNITY_SCOPE);
      expect(granted.idToken).toMatchObject({ daily_limit_minutes: 60, guardian_linked: true, consent: 'granted' });

      // 30 minutes a day, set in the guardian area: the next ID token says 30, and products hear it.
      const heard = receiver.received.length;
      await guardian.goto(`${app.server.url}/guardian`);
      await expectScreen(guardian, text['guardian.title']);
      await guardian.getByTestId('daily-minutes').selectOption('30', WAIT);
      await guardian.getByRole('button', { name: text['guardian.saveLimits'] }).click();
      await guardian.getByText(text['guardian.saved']).waitFor(WAIT);
      await keepScreenshot(guardian, {
        path: `${import.meta.dirname}/screenshots/guardian-area.${locale}.${PHONE.width}.png`,
      });
      const limited = await childAtApp(childPhone);
      expect(limited.idToken.daily_limit_minutes).toBe(30);
      const events = await verifiedEvents(receiver, secret, heard + 1);
      expect(events.at(-1)).toMatchObject({
        type: 'minor.settings.changed',
        data: { user_id: Number(limited.idToken.sub), daily_limit_minutes: 30, minor_mode: true },
      });

      // A copy of the child's data, asked for in the guardian area: the zip is the child's.
      await guardian.getByRole('button', { name: text['dataExport.childAsk'] }).click();
      const copy = guardian.getByRole('link', { name: text['dataExport.childDownload'] });
      await copy.waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([guardian.waitForEvent('download'), copy.click()]);
      const files = unzipSync(new Uint8Array(await buffer(await download.createReadStream())));
      const childProfile = JSON.parse(strFromU8(files['profile.json'] ?? new Uint8Array())) as {
        profile: { phone: string }[];
      };
      expect(childProfile.profile[0]?.phone).toBe(childPhone);

      // Withdrawal: the child's token stops at once, and the child's page is signed out.
      await guardian.getByRole('button', { name: text['family.withdraw'] }).click();
      const dialog = guardian.getByRole('alertdialog', { name: text['family.withdrawAskTitle'] });
      await dialog.getByRole('button', { name: text['family.withdraw'] }).click(WAIT);
      await dialog.waitFor({ state: 'detached', ...WAIT });
      await guardian.getByText(text['family.state.withdrawn']).waitFor(WAIT);
      const profile = await fetch(`${app.server.url}${routes.getProfile.path}`, {
        headers: { authorization: `Bearer ${limited.token}` },
      });
      expect(profile.status).toBe(403);
      await child.reload();
      await expectScreen(child, text['signIn.title']);

      // Refusal: a second child's link, refused after a question, deletes that account.
      const second = await signUp(app.server, newPhone(), PASSWORD, [-1], { birth_year_month: bornYearsAgo(9) });
      const secondLink = await client(app.server.url)<{ link: string }>(
        'POST',
        guardianTable.openConsentLink.path,
        {},
        { token: second.token },
      );
      await guardian.goto(`${app.server.url}/consent#${secondLink.body.link}`);
      await expectScreen(guardian, text['guardianConsent.title']);
      await guardian.getByLabel(text['guardianConsent.relation']).selectOption('father');
      await guardian.getByRole('button', { name: text['guardianConsent.refuse'] }).click();
      const refuse = guardian.getByRole('alertdialog', { name: text['guardianConsent.refuseAskTitle'] });
      await refuse.getByRole('button', { name: text['guardianConsent.refuse'] }).click(WAIT);
      await expectScreen(guardian, text['guardianConsent.refusedTitle']);
      expect((await passwordSignInAnswer(app, second.phone, PASSWORD)).status).not.toBe(200);
    } finally {
      await childTab.close();
      await guardianTab.close();
    }
  });
});

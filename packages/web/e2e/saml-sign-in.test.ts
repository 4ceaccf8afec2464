/**
 * "Sign in with your school" through a SAML federation in Chromium on a phone, in both languages: a
 * student finds the institution in /school by name, the identity provider (samlify, in a signed
 * CARSI-shaped aggregate) answers with a signed response the browser posts back, and the student lands
 * signed in, with the choice remembered.
 */
import { routes } from '@edupass/protocol';
import { client } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import {
  ATTRIBUTES,
  FEDERATION_CERT,
  type SamlFederation,
  type SamlPerson,
  startSamlFederation,
} from '@edupass/test-kit/saml-federation';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { withApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { smallTargets } from './support/touch.ts';

const app = withApp();
const PHONE = { width: 390, height: 844 };
let federation: SamlFederation;

beforeAll(async () => {
  federation = await startSamlFederation(() => app.server.url);
  const call = client(app.server.url);
  const edu = eduSteps(app.server, call);
  const schoolId = await edu.addSchool(federation.idp.names.zh);
  edu.ok(
    await call(
      'POST',
      pathOf(routes.addSchoolConnector.path, { id: schoolId }),
      {
        code: 'beifang',
        kind: 'saml',
        name: `${federation.idp.names.zh}（CARSI）`,
        settings: {
          metadata_url: federation.metadataUrl,
          federation_cert: FEDERATION_CERT,
          idp_entity_id: federation.idp.entityId,
        },
      },
      { token: await edu.operatorToken() },
    ),
  );
}, 120_000);

afterAll(async () => {
  await federation?.close();
});

let students = 0;
const student = (): SamlPerson => ({
  attributes: {
    [ATTRIBUTES.pairwiseId]: [`e2e${++students}x7q@beifang.edu.cn`],
    [ATTRIBUTES.affiliation]: ['student'],
    [ATTRIBUTES.displayName]: ['王小明'],
  },
});

for (const { locale, text } of LOCALES) {
  test(`${locale}: a student finds the institution, signs in at its identity provider and lands signed in`, async () => {
    await inPage(app.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await page.goto(`${app.server.url}/school`);
      await expectScreen(page, text['school.title']);
      const choices = page.locator('.school-choice');
      await page.getByLabel(text['school.search']).fill('北方 示范');
      await expect.poll(() => choices.count(), { timeout: 30_000 }).toBe(1);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      federation.signInAs(student());
      await choices.first().click();
      await page.getByRole('button', { name: text['gate.submit'] }).click();
      await page.waitForURL(`${app.server.url}/account`);
      await page.locator('h1').waitFor();
      expect(federation.lastRequest()?.relayState.startsWith('beifang.')).toBe(true);
      // Signed in as this client's own tokens: a reload keeps the account page.
      await page.reload();
      await page.locator('h1').waitFor();
      expect(new URL(page.url()).pathname).toBe('/account');
      expect(tab.errors).toEqual([]);
    });
  }, 180_000);
}

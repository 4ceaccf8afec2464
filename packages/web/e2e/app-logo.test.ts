/**
 * An application whose registered logo does not load (its address, on EduPass's own origin so the
 * page's policy allows it, answers 404): the sign-in screen it opens shows the application's
 * initials in the logo's place, centred in its square, never a broken picture. Both languages, on a phone, in Chromium.
 */
import { join } from 'node:path';
import { signInOperator } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { type DemoApp, registerDemoApp, startDemoApp } from './support/demo-app.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';
import { expectCleanScreen, PHONE } from './support/touch.ts';

let app: AppUnderTest;
let star: DemoApp;
const shot = (name: string) => join(import.meta.dirname, 'screenshots', name);

beforeAll(async () => {
  [app, star] = await Promise.all([startApp(), startDemoApp('Star')]);
  const gone = `${app.server.url}/avatars/gone-logo.png`;
  expect((await fetch(gone)).status).toBe(404);
  const operator = (await signInOperator(app.server)).token;
  await registerDemoApp(app.server, star, operator, { name: 'Star Courses', logo_url: gone });
}, 120_000);
afterAll(async () => {
  await star?.close();
  await app?.close();
});

for (const { locale, text } of LOCALES) {
  test(`${locale}: a logo that answers 404 gives way to the application's initials, no broken picture`, async () => {
    const tab = await openPage(app.browser, { locale, ...PHONE });
    const { page } = tab;
    try {
      await page.goto(star.origin);
      await page.getByRole('link', { name: 'Sign in with EduPass' }).click();
      await expectScreen(page, text['signIn.titleFor'].replace('{app}', 'Star Courses'));
      const banner = page.locator('.return-app');
      await banner.locator('.app-logo-initials', { hasText: 'SC' }).waitFor();
      expect(await banner.locator('img').count()).toBe(0);
      // The initials sit in the middle of the square, not in its corner.
      const offset = await banner.locator('.app-logo-initials').evaluate((box) => {
        const range = document.createRange();
        range.selectNodeContents(box);
        const [outer, inner] = [box.getBoundingClientRect(), range.getBoundingClientRect()];
        return {
          x: Math.abs(outer.left + outer.width / 2 - (inner.left + inner.width / 2)),
          y: Math.abs(outer.top + outer.height / 2 - (inner.top + inner.height / 2)),
        };
      });
      expect(offset.x).toBeLessThan(3);
      expect(offset.y).toBeLessThan(3);
      await expectCleanScreen(page, 'initials in place of a broken logo');
      await keepScreenshot(page, { path: shot(`app-logo-initials.${locale}.390.png`), fullPage: true });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
}

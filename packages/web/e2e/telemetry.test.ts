/**
 * Usage events and monitoring wait for the visitor's consent: nothing is sent before it, page views
 * and flow events are sent after it, and "no" is remembered across visits.
 */
import { REPORT_PATHS } from '@edupass/protocol';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const isTelemetry = (request: Request) => {
  const path = new URL(request.url()).pathname;
  return path.startsWith('/report') || path.startsWith(REPORT_PATHS.beacon);
};

/** The event keys in the usage batches a page sent. */
const eventKeys = (requests: Request[]) =>
  requests
    .filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === REPORT_PATHS.report('edupass'))
    .flatMap((r) => {
      const body = JSON.parse(r.postData() ?? '{}') as { data?: { b?: { e: string }[] } };
      return (body.data?.b ?? []).map((event) => event.e);
    });

test('nothing is sent before consent; page views and API failures after it', async () => {
  const tab = await openPage(app.browser, { locale: 'en', consent: 'unset' });
  const { page } = tab;
  const sent: Request[] = [];
  page.on('request', (request) => isTelemetry(request) && sent.push(request));
  try {
    await page.goto(app.server.url);
    await expectScreen(page, 'Sign in');
    await page.waitForTimeout(1500);
    expect(sent).toEqual([]);

    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => eventKeys(sent)).toContain('page_view');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await expectScreen(page, 'Create an account');
    await expect.poll(() => eventKeys(sent).filter((key) => key === 'page_view').length).toBeGreaterThanOrEqual(2);
    // The monitor reports API outcomes: successes sampled, every failure.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('tab', { name: 'Password' }).click();
    await page.getByLabel('Phone, username or e-mail').fill('13900000000');
    await page.locator('input[autocomplete="current-password"]').fill('wrong-pass1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The refusal is said at the password field, which is marked invalid.
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await expect
      .poll(() =>
        sent.some((r) => {
          const url = new URL(r.url());
          return (
            url.pathname === REPORT_PATHS.beacon &&
            url.searchParams.get('k') === 'api' &&
            url.searchParams.get('c') === '403'
          );
        }),
      )
      .toBe(true);
  } finally {
    await tab.close();
  }
});

test('"No thanks" is remembered: a later visit sends nothing and shows no banner', async () => {
  const first = await openPage(app.browser, { locale: 'en', consent: 'unset' });
  const sent: Request[] = [];
  first.page.on('request', (request) => isTelemetry(request) && sent.push(request));
  try {
    await first.page.goto(app.server.url);
    await first.page.getByRole('button', { name: 'No thanks' }).click();
    await first.page.reload();
    await expectScreen(first.page, 'Sign in');
    expect(await first.page.getByRole('region', { name: 'Help us improve EduPass' }).count()).toBe(0);
    await first.page.getByRole('link', { name: 'Sign up' }).click();
    await expectScreen(first.page, 'Create an account');
    await first.page.waitForTimeout(1500);
    expect(sent).toEqual([]);
  } finally {
    await first.close();
  }
});

/**
 * The privacy notice's retention statement, in Chromium against the real server started with its own
 * retention settings: the link under an agreement's text opens /privacy/retention, whose rows say how
 * long each kind of record is kept — the numbers the server runs with (AUDIT_RETENTION_DAYS 400,
 * USAGE_RETENTION_DAYS 60 here), in Chinese and in English. Axe-clean, at phone and desktop width.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { LOCALES, VIEWPORTS } from './support/matrix.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp({ auditRetentionDays: 400, usageRetentionDays: 60 });
});
afterAll(async () => {
  await app?.close();
});

const ROWS = {
  'zh-CN': { audit: ['管理员操作日志', '400 天'], usage: ['使用统计事件', '60 天'] },
  en: { audit: ['Operators’ audit log', '400 days'], usage: ['Usage events', '60 days'] },
};

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  test.each(VIEWPORTS)(
    '$name: from an agreement to the statement of the running settings',
    async ({ width, height }) => {
      const tab = await openPage(app.browser, { locale, width, height });
      const { page } = tab;
      try {
        await page.goto(`${app.server.url}/legal/terms?version=1`);
        await expectScreen(page, text['agree.pageTitle']);
        await page.getByRole('link', { name: text['agree.retention'] }).click();
        await expectScreen(page, text['retention.title']);
        expect(new URL(page.url()).pathname).toBe('/privacy/retention');
        for (const [record, kept] of Object.values(ROWS[locale])) {
          const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: record, exact: true }) });
          await row.waitFor();
          expect(await row.getByRole('cell').innerText()).toBe(kept);
        }
        expect(await page.getByRole('row').count()).toBe(1 + 9);
        expect(await seriousViolations(page)).toEqual([]);
        expect(tab.errors).toEqual([]);
      } finally {
        await tab.close();
      }
    },
  );
});

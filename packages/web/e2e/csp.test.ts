/**
 * The Content-Security-Policy against the built web client in Chromium: the account pages, the
 * console, the API docs and the development provider's screen render with no CSP violation, and the
 * policy does refuse what it is for (an injected inline script; being framed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { expectScreen, openPage } from './support/pages.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

describe('pages under the CSP', () => {
  it('the sign-in, sign-up and account pages render without violations', async () => {
    const tab = await openPage(app.browser, { locale: 'en' });
    try {
      await tab.page.goto(app.server.url);
      await tab.page.getByRole('link', { name: 'Sign up' }).click();
      await expectScreen(tab.page, /Sign up|Create/i);
      await tab.page.goto(`${app.server.url}/account`);
      await tab.page.waitForLoadState('networkidle');
      expect(await tab.page.locator('#root').innerHTML()).not.toBe('');
      expect(tab.cspViolations).toEqual([]);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it.each([
    ['the console', '/console.html', '运营人员登录'],
    ['the API docs', '/docs/', /EduPass API/],
  ])('%s renders without violations', async (_name, path, heading) => {
    const tab = await openPage(app.browser);
    try {
      await tab.page.goto(`${app.server.url}${path}`);
      await tab.page.getByRole('heading', { name: heading }).first().waitFor();
      await tab.page.waitForLoadState('networkidle');
      expect(tab.cspViolations).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("the development provider's screen renders with its styles, without violations", async () => {
    const tab = await openPage(app.browser);
    try {
      const query = new URLSearchParams({
        appid: app.server.config.wechat.appId,
        redirect_uri: `${app.server.url}/tiger/v3/web/accounts/oauth/wechat/callback`,
        response_type: 'code',
        scope: 'snsapi_login',
        state: 's',
      });
      await tab.page.goto(`${app.server.url}/dev/oauth/wechat/connect/qrconnect?${query}`);
      await tab.page.waitForLoadState('networkidle');
      expect(await tab.page.evaluate(() => getComputedStyle(document.body).maxWidth)).not.toBe('none');
      expect(tab.cspViolations).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

describe('what the CSP refuses', () => {
  it('an injected inline script does not run, and the browser reports it', async () => {
    const tab = await openPage(app.browser);
    try {
      await tab.page.goto(app.server.url);
      await tab.page.waitForLoadState('networkidle');
      const ran = await tab.page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.body.append(script);
        return (window as { __injected?: boolean }).__injected === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => tab.cspViolations.length).toBeGreaterThan(0);
    } finally {
      await tab.close();
    }
  });

  it('another site cannot frame the account pages or the console', async () => {
    const tab = await openPage(app.browser);
    try {
      await tab.page.goto('about:blank');
      await tab.page.setContent(
        `<iframe id="account" src="${app.server.url}/"></iframe><iframe id="console" src="${app.server.url}/console.html"></iframe>`,
      );
      await tab.page.waitForLoadState('networkidle');
      for (const id of ['account', 'console']) {
        const frame = await (await tab.page.$(`#${id}`))?.contentFrame();
        // A refused frame is left empty (Chromium shows its error page instead of the document).
        const title = await frame?.title().catch(() => '');
        expect(title).not.toMatch(/EduPass|运营|Console/i);
        expect(
          await frame
            ?.locator('#root')
            .count()
            .catch(() => 0),
        ).toBe(0);
      }
    } finally {
      await tab.close();
    }
  });
});

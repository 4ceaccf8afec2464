/**
 * WeChat and QQ sign-in in Chromium, end to end: a site page (another origin of the same site) has
 * "WeChat" and "QQ" buttons; the browser goes through EduPass's authorize step and the development
 * provider's screen, comes back to the site's callback page, which finishes the sign-in with the code
 * and state and reads the profile with the `authorization` cookie.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNTS_BASE } from '@edupass/protocol';
import { launchBrowser } from '@edupass/test-kit/browser';
import type { TestServer } from '@edupass/test-kit/harness';
import { startOauthTestServer } from '@edupass/test-kit/oauth-flow';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const home = (api: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title></head>
<body><h1>Sign in</h1>
<button id="wechat">WeChat</button> <button id="qq">QQ</button>
<script>
for (const provider of ['wechat', 'qq']) {
  document.getElementById(provider).addEventListener('click', () => {
    const back = location.origin + '/callback/' + provider;
    location.href = '${api}${ACCOUNTS_BASE}/oauth/' + provider + '/authorize?redirect=' + encodeURIComponent(back);
  });
}
</script></body></html>`;

// The callback page: code + state to the sign-in call; an unknown identity becomes a user of its own.
const callback = (
  api: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head>
<body><p id="result">signing in…</p>
<script>
const post = (path, body) => fetch('${api}${ACCOUNTS_BASE}/' + path, {
  method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
}).then((r) => r.json());
(async () => {
  const provider = location.pathname.split('/').pop();
  const params = new URLSearchParams(location.search);
  let answer = await post('oauth/' + provider, { code: params.get('code'), state: params.get('state'), pid: 'edupass' });
  if (answer.oauth_ticket) answer = await post('oauth/third-party', { oauth_ticket: answer.oauth_ticket });
  if (!answer.user_info) throw new Error(JSON.stringify(answer));
  const profile = await fetch('${api}${ACCOUNTS_BASE}/profile', { credentials: 'include' }).then((r) => r.json());
  document.getElementById('result').textContent = 'signed in as ' + profile.nickname + ' #' + profile.id;
})().catch((error) => { document.getElementById('result').textContent = 'failed: ' + error.message; });
</script></body></html>`;

describe('third-party sign-in in a browser', () => {
  let site: Server;
  let siteOrigin = '';
  let api: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = createServer((request, response) => {
      const html = request.url?.startsWith('/callback/') ? callback(api.url) : home(api.url);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    api = await startOauthTestServer({ corsOrigins: [siteOrigin] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  // Different identities: nicknames are unique, so a second 小红 would get a default one (用户 + digits).
  it.each([
    ['WeChat', 'wechat', '小红'],
    ['QQ', 'qq', '李老师'],
  ] as const)(
    'clicks "%s", picks an identity on the provider screen, and comes back signed in',
    async (label, provider, identity) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${siteOrigin}/`);
        await page.getByRole('button', { name: label, exact: true }).click();
        await page.waitForURL(new RegExp(`/dev/oauth/${provider}/`));
        await expect.poll(() => page.title()).toContain(label);
        await page.getByRole('button', { name: identity, exact: true }).click();
        await page.waitForURL(`${siteOrigin}/callback/${provider}?**`);
        await expect
          .poll(() => page.locator('#result').textContent())
          .toMatch(new RegExp(`^signed in as ${identity} #\\d+$`));

        const cookies = await context.cookies(api.url);
        expect(cookies.find((c) => c.name === 'authorization')).toMatchObject({ httpOnly: true });
        // The state was single-use: its cookie is gone after the sign-in.
        expect(cookies.find((c) => c.name === `edupass_oauth_${provider}`)).toBeUndefined();

        // The next sign-in with the same identity reaches the same user directly.
        const first = await page.locator('#result').textContent();
        await page.goto(`${siteOrigin}/`);
        await page.getByRole('button', { name: label, exact: true }).click();
        await page.getByRole('button', { name: identity, exact: true }).click();
        await page.waitForURL(`${siteOrigin}/callback/${provider}?**`);
        await expect.poll(() => page.locator('#result').textContent()).toBe(first);
      } finally {
        await context.close();
      }
    },
  );
});

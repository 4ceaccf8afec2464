/**
 * The SDK in Chromium: cookies written as the spec says, one refresh between two tabs, and tabs told of
 * each other's sign-in. Pages come from a local server on a *.localhost name (so the cookies can sit on
 * a shared parent domain) that also proxies the API to the real test server.
 */
import { createServer, type Server as HttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser, launchBrowser } from '@edupass/test-kit/browser';
import { startTestServer } from '@edupass/test-kit/harness';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Sdk from './index.ts';
import type * as TestPage from './testing/react-page.ts';

type Api = Awaited<ReturnType<typeof startTestServer>>;
/** What the pages hold: the SDK bundle as `EduPass`, the client under test, sessions seen. */
type PageWindow = { EduPass: typeof TestPage; client: Sdk.AccountClient; sessions: Sdk.Session[] };
const DOMAIN = 'edupass.localhost';

/**
 * Long enough that no access token lapses while a test runs on a loaded machine; the tests that need an
 * expired one take its cookies away, as the browser does at max-age.
 */
const ACCESS_TTL_SECONDS = 300;

let api: Api;
let pages: HttpServer;
let origin: string;
let browser: Browser;
const seen: string[] = [];
/** Each refresh through the proxy: the token it presented, the one it got, and when it started and ended. */
interface Refresh {
  presented?: string;
  answered?: string;
  started: number;
  ended?: number;
}
const refreshes: Refresh[] = [];
const REFRESH_PATH = '/tiger/v3/web/accounts/tokens/refresh';
/** The refresh token a refresh request presents (`refresh_token`) or its token set answers (`refresh.token`). */
const refreshTokenIn = (body: string) => {
  try {
    const data = JSON.parse(body) as { refresh_token?: string; refresh?: { token?: string } };
    return data.refresh_token ?? data.refresh?.token;
  } catch {
    return undefined;
  }
};
let clock = 0;
/** How long the proxy holds back the answer to the first refresh since `refreshes` was emptied. */
let holdFirstRefreshMs = 0;
const headersSeen: Record<string, string | string[] | undefined>[] = [];

beforeAll(async () => {
  const [server, bundle, launched] = await Promise.all([
    startTestServer({ accessTokenTtlSeconds: ACCESS_TTL_SECONDS }),
    bundleForBrowser(fileURLToPath(new URL('./testing/react-page.ts', import.meta.url)), 'EduPass'),
    launchBrowser(),
  ]);
  api = server;
  browser = launched;
  const target = new URL(api.url);
  pages = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    if (!url.startsWith('/tiger/') && !url.startsWith('/captcha/')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/sdk.js"></script>');
      return;
    }
    seen.push(`${req.method} ${url}`);
    headersSeen.push(req.headers);
    const refresh: Refresh | undefined = url === REFRESH_PATH ? { started: ++clock } : undefined;
    if (refresh) {
      refreshes.push(refresh);
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        refresh.presented = refreshTokenIn(body);
      });
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: url,
        headers: { ...req.headers, host: target.host },
      },
      async (answer) => {
        if (refresh === refreshes[0] && holdFirstRefreshMs > 0)
          await new Promise((resolve) => setTimeout(resolve, holdFirstRefreshMs));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (refresh) {
          let body = '';
          answer.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          answer.on('end', () => {
            refresh.answered = refreshTokenIn(body);
            refresh.ended = ++clock;
          });
        }
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://app.${DOMAIN}:${(pages.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  pages?.closeAllConnections();
  pages?.close();
  await api?.close();
});

let counter = Math.floor(Math.random() * 10_000_000);
const nextPhone = () => `135${String(++counter % 100_000_000).padStart(8, '0')}`;

const openPage = async (context: BrowserContext): Promise<Page> => {
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => 'EduPass' in window);
  return page;
};

/** Creates `window.client` in the page. */
const makeClient = (page: Page, env: string) =>
  page.evaluate(
    ({ env, domain }) => {
      const w = window as unknown as PageWindow;
      w.client = w.EduPass.createAccountClient({
        pid: 'edupass',
        appid: 'wx-dev',
        product_code: 'edupass',
        platform: 'web',
        auth_version: 2,
        env: env as Sdk.AccountConfig['env'],
        domain,
        host: { tiger: '', platform: '' },
      });
    },
    { env, domain: DOMAIN },
  );

/** Signs up a fresh phone user in the page; returns the user id. */
const signUp = async (page: Page): Promise<number> => {
  const phone = nextPhone();
  await page.evaluate((phone) => {
    const w = window as unknown as PageWindow;
    return w.EduPass.sendRegisterCode(w.client, { phone_number: phone });
  }, phone);
  const captcha = (await api.lastCode(phone)) ?? '';
  return page.evaluate(
    async ({ phone, captcha }) => {
      const w = window as unknown as PageWindow;
      const result = await w.EduPass.registerByPhone(w.client, {
        phone_number: phone,
        captcha,
        password: 'Kestrel2718',
      });
      return result.user_info.id;
    },
    { phone, captcha },
  );
};

describe('in Chromium', () => {
  it('writes the three token cookies with the env prefix, on the shared domain, max-age = expires_in', async () => {
    const context = await browser.newContext();
    const page = await openPage(context);
    await makeClient(page, 'staging');
    const before = Date.now() / 1000;
    await signUp(page);
    // The cookie is written somewhere between before and now: a slow sign-up moves its end later.
    const took = Math.ceil(Date.now() / 1000 - before);
    const cookies = await context.cookies();
    const byName = Object.fromEntries(cookies.map((c) => [c.name, c]));
    for (const name of ['staging_access_token', 'staging_token_type', 'staging_refresh_token']) {
      expect(byName[name], name).toMatchObject({ domain: `.${DOMAIN}`, path: '/', httpOnly: false });
    }
    expect(byName.access_token).toBeUndefined();
    const lifetime = (name: string) => Math.round((byName[name]?.expires ?? 0) - before);
    expect(lifetime('staging_access_token')).toBeGreaterThanOrEqual(ACCESS_TTL_SECONDS - 1);
    expect(lifetime('staging_access_token')).toBeLessThanOrEqual(ACCESS_TTL_SECONDS + took);
    expect(lifetime('staging_token_type')).toBe(lifetime('staging_access_token'));
    expect(lifetime('staging_refresh_token')).toBeGreaterThan(3600);
    expect(byName.staging_token_type?.value).toMatch(/\S/);
    // Chromium tells the connection type, so Net rides along with the other standard headers.
    expect(headersSeen.at(-1)).toMatchObject({
      'content-type': 'application/json',
      'product-code': 'edupass',
      pid: 'edupass',
      platform: 'web',
      'auth-version': '2',
      'sdk-account-version': '0.16.2',
      net: expect.stringMatching(/\S/),
    });

    // In prod the names carry no prefix; sign-out clears them.
    await makeClient(page, 'prod');
    await signUp(page);
    expect((await context.cookies()).map((c) => c.name)).toEqual(
      expect.arrayContaining(['access_token', 'token_type', 'refresh_token']),
    );
    await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      return w.EduPass.logout(w.client);
    });
    const left = (await context.cookies()).map((c) => c.name);
    expect(left).not.toContain('access_token');
    expect(left).not.toContain('refresh_token');
    expect(left).toContain('staging_refresh_token');
    await context.close();
  });

  /**
   * The tab that waited for the Web Lock finds the tokens the first one wrote and asks for none. Chromium
   * can pass the lock on a moment before the first tab's cookies reach the other tab's `document.cookie`
   * (seen under load: the other tab's cookie store already had them): the waiting tab then refreshes
   * with the token the first one rotated, after the first refresh ended, and the server's grace window
   * answers it with the same successor. Either way no tab signs the other out, and two refreshes never
   * run at once (the first is answered a second late here, which a tab without the lock would not wait for).
   */
  it('two tabs with an expired access token refresh one at a time, the second only with the same token and answer', async () => {
    const context = await browser.newContext();
    const [first, second] = [await openPage(context), await openPage(context)];
    await makeClient(first, 'dev');
    await signUp(first);
    // The access cookies and the server's session cookie reach their max-age (the browser drops them),
    // leaving the refresh token.
    await context.clearCookies({ name: /^(dev_access_token|dev_token_type|authorization)$/ });
    expect((await context.cookies()).map((c) => c.name)).toEqual(['dev_refresh_token']);
    await makeClient(second, 'dev');
    seen.length = 0;
    const startAt = Date.now() + 300;
    const profile = (page: Page) =>
      page.evaluate(async (startAt) => {
        const w = window as unknown as PageWindow;
        await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
        return (await w.EduPass.getProfile(w.client)).id;
      }, startAt);
    // The first refresh is answered a second late: a tab that did not wait for it would start its own meanwhile.
    refreshes.length = 0;
    holdFirstRefreshMs = 1000;
    const [a, b] = await Promise.all([profile(first), profile(second)]);
    holdFirstRefreshMs = 0;
    expect(a).toBe(b);
    expect(seen.filter((line) => line === 'GET /tiger/v3/web/accounts/profile')).toHaveLength(2);
    const [once, again, ...more] = refreshes;
    expect(more).toEqual([]);
    expect(once?.answered).toMatch(/\S/);
    if (again) {
      // One at a time: the second started after the first was answered.
      expect(again.started).toBeGreaterThan(once?.ended ?? Number.POSITIVE_INFINITY);
      expect(again.presented).toBe(once?.presented);
      expect(again.answered).toBe(once?.answered);
    }
    // Both tabs go on with the one token set: their next calls need no refresh.
    await Promise.all([profile(first), profile(second)]);
    expect(refreshes).toHaveLength(again ? 2 : 1);
    expect((await context.cookies()).filter((cookie) => cookie.name === 'dev_refresh_token')).toHaveLength(1);
    await context.close();
  });

  it('another tab learns of a sign-in without a request of its own', async () => {
    const context = await browser.newContext();
    const [first, second] = [await openPage(context), await openPage(context)];
    await makeClient(first, 'test');
    await makeClient(second, 'test');
    await second.evaluate(() => {
      const w = window as unknown as PageWindow;
      w.sessions = [];
      w.EduPass.onChange(w.client, (session) => w.sessions.push(session));
    });
    seen.length = 0;
    const id = await signUp(first);
    await second.waitForFunction(() => (window as unknown as PageWindow).sessions.length > 0);
    const sessions = await second.evaluate(() => (window as unknown as PageWindow).sessions);
    expect(sessions).toEqual([{ status: 'signed-in', user: expect.objectContaining({ id }) }]);
    expect(seen.every((line) => !line.includes('/tokens/'))).toBe(true);
    await context.close();
  });

  it('useSession re-renders on sign-in and sign-out', async () => {
    const context = await browser.newContext();
    const page = await openPage(context);
    await makeClient(page, 'press');
    await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      w.EduPass.mount(w.client);
    });
    await expect.poll(() => page.textContent('#session')).toBe('signed-out:-');
    const id = await signUp(page);
    await expect.poll(() => page.textContent('#session')).toBe(`signed-in:${id}`);
    await page.evaluate(() => {
      const w = window as unknown as PageWindow;
      return w.EduPass.logout(w.client);
    });
    await expect.poll(() => page.textContent('#session')).toBe('signed-out:-');
    await context.close();
  });
});

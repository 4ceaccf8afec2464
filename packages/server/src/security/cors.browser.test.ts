/**
 * A front end on another origin, in real Chromium: with its origin in CORS_ORIGINS it refreshes tokens,
 * edits the profile and changes the password through fetch with credentials (the preflights allow PUT,
 * PATCH, DELETE and the API's headers); an unlisted origin is refused by the browser, and its form post
 * riding on the cookie (same-site: another port of 127.0.0.1, so SameSite=Lax sends it) is refused by
 * the server. Two ports on 127.0.0.1 are the two origins.
 */
import { createServer, type Server } from 'node:http';
import { A, nextPhone, PASSWORD, PID, signUp, T } from '@edupass/test-kit/accounts';
import { launchBrowser } from '@edupass/test-kit/browser';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;
let browser: Browser;
const sites: Server[] = [];

/** A site serving one empty page at its root; its origin. */
const startSite = async (): Promise<string> => {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Front end</title>');
  });
  sites.push(site);
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const address = site.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
};

let listed: string;
let unlisted: string;

beforeAll(async () => {
  [listed, unlisted] = await Promise.all([startSite(), startSite()]);
  [server, browser] = await Promise.all([startTestServer({ corsOrigins: [listed] }), launchBrowser()]);
  server.config.publicUrl = server.url;
});

afterAll(async () => {
  await browser?.close();
  for (const site of sites) await new Promise((done) => site.close(done));
  await server?.close();
});

const open = async (origin: string): Promise<Page> => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(origin);
  return page;
};

interface Result {
  status?: number;
  body?: unknown;
  error?: string;
}

/** fetch() in the page, with credentials; a network/CORS refusal comes back as `error`. */
const fetchIn = (page: Page, url: string, init: { method: string; headers?: Record<string, string>; body?: unknown }) =>
  page.evaluate(
    async ({ url, init }): Promise<Result> => {
      try {
        const response = await fetch(url, {
          method: init.method,
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, init },
  );

const nicknameOf = async (token: string) => {
  const answer = await fetch(`${server.url}${A}/profile`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { nickname: string }).nickname;
};

describe('a listed front end (CORS_ORIGINS)', () => {
  it('refreshes tokens, edits the profile and changes the password with fetch and credentials', async () => {
    const account = await signUp(server, nextPhone());
    const page = await open(listed);
    const refreshed = await fetchIn(page, `${server.url}${T}/refresh`, {
      method: 'PUT',
      headers: { 'Auth-Version': '2' },
      body: { refresh_token: account.refresh },
    });
    expect(refreshed.status, JSON.stringify(refreshed)).toBe(200);
    const access = (refreshed.body as { access: { token: string } }).access.token;
    const bearer = { Authorization: `Bearer ${access}`, 'Auth-Version': '2' };

    const edited = await fetchIn(page, `${server.url}${A}/info`, {
      method: 'PATCH',
      headers: bearer,
      body: { nickname: 'FrontEnd' },
    });
    expect(edited.status, JSON.stringify(edited)).toBeLessThan(300);
    expect(await nicknameOf(access)).toBe('FrontEnd');

    const changed = await fetchIn(page, `${server.url}${A}/password`, {
      method: 'PATCH',
      headers: bearer,
      body: { old_password: PASSWORD, password: 'Another456', confirm_password: 'Another456' },
    });
    expect(changed.status, JSON.stringify(changed)).toBe(204);
    const login = await fetch(`${server.url}${A}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identity: account.phone, password: 'Another456', pid: PID }),
    });
    expect(login.status).toBe(200);
  });

  it('signs in and writes with the cookie (its Origin is allowed), and signs out with DELETE', async () => {
    const account = await signUp(server, nextPhone());
    const page = await open(listed);
    const login = await fetchIn(page, `${server.url}${A}/login`, {
      method: 'POST',
      body: { identity: account.phone, password: PASSWORD, pid: PID },
    });
    expect(login.status, JSON.stringify(login)).toBe(200);
    const edited = await fetchIn(page, `${server.url}${A}/info`, { method: 'PATCH', body: { nickname: 'ByCookie' } });
    expect(edited.status, JSON.stringify(edited)).toBeLessThan(300);
    expect(await nicknameOf(account.token)).toBe('ByCookie');
    const out = await fetchIn(page, `${server.url}${T}`, { method: 'DELETE', body: {} });
    expect(out.status, JSON.stringify(out)).toBe(204);
  });
});

describe('an unlisted origin', () => {
  it('is refused by the browser, and nothing changes', async () => {
    const account = await signUp(server, nextPhone());
    const page = await open(unlisted);
    const edited = await fetchIn(page, `${server.url}${A}/info`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${account.token}` },
      body: { nickname: 'Intruder' },
    });
    expect(edited.error).toMatch(/TypeError/);
    const refreshed = await fetchIn(page, `${server.url}${T}/refresh`, {
      method: 'PUT',
      body: { refresh_token: account.refresh },
    });
    expect(refreshed.error).toMatch(/TypeError/);
    expect(await nicknameOf(account.token)).not.toBe('Intruder');
  });

  it("cannot sign a user out with a form post that carries the user's cookie", async () => {
    const account = await signUp(server, nextPhone());
    const context = await browser.newContext();
    // The user signed in at the real site: the browser holds the cookie.
    const home = await context.newPage();
    await home.goto(`${server.url}/healthz`);
    const login = await fetchIn(home, `${server.url}${A}/login`, {
      method: 'POST',
      body: { identity: account.phone, password: PASSWORD, pid: PID },
    });
    expect(login.status).toBe(200);
    const cookie = (await context.cookies(server.url)).find((c) => c.name === 'authorization')?.value ?? '';
    expect(cookie).not.toBe('');

    // The other site posts to the logout route, as a form and as a body-less no-cors fetch (which no
    // content type stops); the browser attaches the cookie to both.
    const attacker = await context.newPage();
    await attacker.goto(unlisted);
    const logout = `${server.url}${A}/logout`;
    const fetched = attacker.waitForResponse((response) => response.url() === logout);
    await attacker.evaluate(
      (action) => fetch(action, { method: 'POST', mode: 'no-cors', credentials: 'include' }).then(() => undefined),
      logout,
    );
    const response = await fetched;
    // 403 is E_9: the cookie arrived (without it the answer would be E_0, 401) and was refused. The
    // opaque answer's body is not readable here; origin-check.test.ts reads it.
    expect(response.status()).toBe(403);
    const posted = attacker.waitForResponse((response) => response.url() === logout);
    await attacker.evaluate((action) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = action;
      document.body.append(form);
      form.submit();
    }, logout);
    expect((await posted).status()).toBeGreaterThanOrEqual(400);
    const profile = await fetch(`${server.url}${A}/profile`, { headers: { cookie: `authorization=${cookie}` } });
    expect(profile.status).toBe(200);
  });
});

/**
 * Browser-facing headers on every kind of answer: pages (web client, console), API answers, the API
 * docs, the development provider's screens; HSTS only where PUBLIC_URL is https; no-store on answers
 * that carry tokens or personal data; CORS preflights for every method and header the API uses, for
 * the configured front ends only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAPTCHA_TICKET_HEADER } from '@edupass/protocol';
import { A, nextPhone, PASSWORD, PID, signUp, T, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FRONT_END = 'http://127.0.0.1:9';
const webRoot = mkdtempSync(join(tmpdir(), 'edupass-web-'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>EduPass</title><div id="root"></div>');
writeFileSync(join(webRoot, 'console.html'), '<!doctype html><title>Console</title><div id="root"></div>');

let server: TestServer;
let https: TestServer;
beforeAll(async () => {
  [server, https] = await Promise.all([
    startTestServer({ webRoot, corsOrigins: [FRONT_END] }),
    startTestServer({ webRoot, publicUrl: 'https://accounts.school.example' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), https?.close()]);
  rmSync(webRoot, { recursive: true, force: true });
});

const page = (url: string) => fetch(url, { headers: { accept: 'text/html' } });

const directives = (answer: Response) =>
  Object.fromEntries(
    (answer.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

describe('every kind of answer', () => {
  it.each([
    ['the web client', '/'],
    ['an account page (client-side route)', '/account/security'],
    ['the console', '/console.html'],
    ['an API answer', `${A}/agreements`],
    ['an error answer', '/tiger/v3/web/nothing-here'],
    ['the API docs', '/docs/'],
    ['a development provider screen', '/dev/oauth/wechat/connect/qrconnect?appid=x'],
  ])('%s: CSP without framing, nosniff, Referrer-Policy, no HSTS on http', async (_kind, path) => {
    const answer = await page(`${server.url}${path}`);
    const csp = directives(answer);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toContain("'self'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });

  it('the headers that rule only documents go on pages and redirects, not on API answers', async () => {
    const documentOnly = {
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const path of ['/', '/console.html', '/docs/', '/dev/oauth/wechat/connect/qrconnect?appid=x']) {
      const answer = await page(`${server.url}${path}`);
      expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/);
      for (const [name, value] of Object.entries(documentOnly))
        expect(answer.headers.get(name), `${path} ${name}`).toBe(value);
    }
    // A browser weighs COOP at each redirect of a navigation: one without it would cut a sign-in
    // window off from the page that opened it.
    const redirect = await fetch(`${server.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    for (const [name, value] of Object.entries(documentOnly)) expect(redirect.headers.get(name), name).toBe(value);
    for (const path of [`${A}/agreements`, '/tiger/v3/web/nothing-here']) {
      const answer = await page(`${server.url}${path}`);
      expect(answer.headers.get('content-type'), path).toMatch(/^application\/json/);
      for (const name of Object.keys(documentOnly)) expect(answer.headers.get(name), `${path} ${name}`).toBeNull();
    }
  });

  it("JSON answers get a policy no weaker than the pages' (no inline styles, no other hosts)", async () => {
    const [json, html] = await Promise.all([page(`${server.url}${A}/agreements`), page(`${server.url}/`)]);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(directives(json)).toEqual({
      'default-src': ["'self'"],
      'base-uri': ["'self'"],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'self'"],
      'script-src': ["'self'"],
    });
    expect(directives(html)['script-src']).toContain('https://*.geetest.com');
    expect(directives(await page(`${https.url}${A}/agreements`))['upgrade-insecure-requests']).toEqual([]);
  });

  it("answers without a body (the usage collector's 204) get the JSON answers' short policy", async () => {
    const [json, collected] = await Promise.all([
      page(`${server.url}${A}/agreements`),
      fetch(`${server.url}/report/edupass`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({
          type: 0,
          alg: '',
          data: {
            m: { d: 1, p: 'edupass', tst: 0, h: 0 },
            e: {},
            b: [{ e: 'open', i: 'headers-test-1', t: 1, d: {} }],
          },
        }),
      }),
    ]);
    expect(collected.status).toBe(204);
    expect(collected.headers.get('content-security-policy')).toBe(json.headers.get('content-security-policy'));
    expect(collected.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HSTS when PUBLIC_URL is https', async () => {
    for (const path of ['/', `${A}/agreements`]) {
      const answer = await page(`${https.url}${path}`);
      expect(answer.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
    }
  });
});

describe('Cache-Control', () => {
  it('no-store on answers carrying tokens or personal data', async () => {
    const account = await signUp(server, nextPhone());
    const login = await fetch(`${server.url}${A}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...TOKEN_SET_HEADERS },
      body: JSON.stringify({ identity: account.phone, password: PASSWORD, pid: PID }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const profile = await fetch(`${server.url}${A}/profile`, { headers: { authorization: `Bearer ${account.token}` } });
    expect(profile.headers.get('cache-control')).toBe('no-store');
    const refresh = await fetch(`${server.url}${T}/refresh`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: account.refresh }),
    });
    expect(refresh.status).toBe(200);
    expect(refresh.headers.get('cache-control')).toBe('no-store');
  });
});

describe('CORS preflight', () => {
  const preflight = (origin: string, method: string, path: string, headers: string) =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });

  it.each([
    ['PUT', `${T}/refresh`],
    ['PATCH', `${A}/info`],
    ['PATCH', `${A}/password`],
    ['DELETE', T],
    ['POST', `${A}/login`],
  ])('a configured front end may %s %s with the API headers and credentials', async (method, path) => {
    const answer = await preflight(
      FRONT_END,
      method,
      path,
      `authorization,auth-version,content-type,${CAPTCHA_TICKET_HEADER.toLowerCase()}`,
    );
    expect(answer.status).toBeLessThan(300);
    expect(answer.headers.get('access-control-allow-origin')).toBe(FRONT_END);
    expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
    expect(answer.headers.get('access-control-allow-methods')?.split(/,\s*/)).toContain(method);
    const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const header of ['authorization', 'auth-version', 'content-type', CAPTCHA_TICKET_HEADER.toLowerCase()]) {
      expect(allowed).toContain(header);
    }
  });

  it('another origin gets no CORS grant', async () => {
    const answer = await preflight('http://127.0.0.1:10', 'PATCH', `${A}/info`, 'authorization');
    // Without Access-Control-Allow-Origin the browser refuses the call.
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});

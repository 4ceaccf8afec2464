/**
 * Writes authenticated by the `authorization` cookie must come from this site or a configured front
 * end: a cross-site form post or fetch that rides on the cookie is E_9 and changes nothing. Bearer
 * tokens are not affected (a page cannot make a browser attach one).
 */

import { A, expectError, expectSignedIn, nextPhone, PASSWORD, PID, signUp, T } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const FRONT_END = 'https://www.school.example';
const { server, call } = useTestServer({ corsOrigins: [FRONT_END] });

/** A signed-in user's plain session token, which is also the cookie's value. */
const cookieSession = async () => {
  const account = await signUp(server, nextPhone());
  const answer = await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID });
  return expectSignedIn(answer).auth.token as string;
};

const withCookie = (token: string, headers: Record<string, string> = {}) => ({
  headers: { cookie: `authorization=${token}`, ...headers },
});

const stillSignedIn = async (token: string) =>
  (await call('GET', `${A}/profile`, undefined, withCookie(token))).status === 200;

describe('cookie-authenticated writes', () => {
  it('a cross-site POST logout with the cookie is E_9 and the session lives on', async () => {
    const token = await cookieSession();
    const answer = await call('POST', `${A}/logout`, {}, withCookie(token, { origin: 'https://attacker.example' }));
    expectError(answer, 'E_9', 67);
    expect(await stillSignedIn(token)).toBe(true);
  });

  it.each([
    ['Origin: null (a sandboxed frame or data: page)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain) without Origin', { 'sec-fetch-site': 'same-site' }],
    ['only a Referer from another site', { referer: 'https://attacker.example/page' }],
  ])('%s is refused', async (_label, headers) => {
    const token = await cookieSession();
    expectError(await call('DELETE', T, {}, withCookie(token, headers)), 'E_9');
    expectError(await call('PATCH', `${A}/info`, { nickname: 'Hacked' }, withCookie(token, headers)), 'E_9');
    expect(await stillSignedIn(token)).toBe(true);
  });

  it('this site, a configured front end, and non-browser clients may write', async () => {
    const same = await cookieSession();
    expect((await call('POST', `${A}/logout`, {}, withCookie(same, { origin: server.url }))).status).toBe(204);
    const front = await cookieSession();
    const edit = await call('PATCH', `${A}/info`, { nickname: 'Ming' }, withCookie(front, { origin: FRONT_END }));
    expect(edit.status, JSON.stringify(edit.body)).toBeLessThan(300);
    const fetchMeta = await cookieSession();
    expect((await call('DELETE', T, {}, withCookie(fetchMeta, { 'sec-fetch-site': 'same-origin' }))).status).toBe(204);
    const referer = await cookieSession();
    expect((await call('DELETE', T, {}, withCookie(referer, { referer: `${server.url}/account` }))).status).toBe(204);
    // No Origin, Sec-Fetch-Site or Referer: not a browser, so not forgeable by a page.
    const app = await cookieSession();
    expect((await call('POST', `${A}/logout`, {}, withCookie(app))).status).toBe(204);
  });

  it('a bearer token from any origin is not refused', async () => {
    const account = await signUp(server, nextPhone());
    const answer = await call(
      'PATCH',
      `${A}/info`,
      { nickname: 'Bearer' },
      {
        token: account.token,
        headers: { origin: 'https://attacker.example' },
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });

  it('reads (GET) with the cookie are not refused, whatever the origin', async () => {
    const token = await cookieSession();
    const answer = await call(
      'GET',
      `${A}/profile`,
      undefined,
      withCookie(token, { origin: 'https://attacker.example' }),
    );
    expect(answer.status).toBe(200);
  });

  it('converting the cookie into a token set from another site is refused', async () => {
    const token = await cookieSession();
    expectError(
      await call('POST', `${T}/convert`, {}, withCookie(token, { origin: 'https://attacker.example' })),
      'E_9',
    );
    expect((await call('POST', `${T}/convert`, {}, withCookie(token, { origin: server.url }))).status).toBe(200);
  });
});

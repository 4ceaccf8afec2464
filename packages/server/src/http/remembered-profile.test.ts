/**
 * The profile read answered from memory (http/remembered-profile.ts): the same answer as the full
 * route, headers included; only for the requests it may answer; and never once the token expired or
 * the server drains. (Sign-outs, blocks and password changes: services/sessions/session-freshness.test.ts,
 * which reads each profile from memory before the change.)
 */
import { routes } from '@edupass/protocol';
import { type Call, client, expectError, signIn, signUp } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer, useTestServer } from '@edupass/test-kit/harness';
import { headersBesidesDate } from '@edupass/test-kit/http-client';
import { requestLines } from '@edupass/test-kit/request-log';
import { describe, expect, it } from 'vitest';
import { accessTokenClaims } from '../services/sessions/access-tokens.ts';
import { rotateSigningKey } from '../services/sessions/signing-keys.ts';

const PROFILE = routes.getProfile.path;
const SITE = 'https://site.example';

const profileOf = (call: Call, token: string, headers: Record<string, string> = {}) =>
  call<{ id: number; nickname: string }>('GET', PROFILE, undefined, { token, headers });

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid?: string }).kid;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The log lines of profile reads, in order. */
const profileReads = (lines: string[]) => requestLines(lines, (url) => url === PROFILE);

const answeredFromMemory = (server: TestServer) => server.app.rememberedProfile.answered;

/**
 * The token's session no longer remembered, as on an instance that did not start it: a sign-in's
 * session is remembered from its start (services/sessions/tokens.ts `startSession`).
 */
const forgetSessionOf = async (server: TestServer, token: string) =>
  server.app.ctx.sessions.forgetSession((await accessTokenClaims(server.app.ctx, token)).sessionId);

/** Two reads of the profile: the first by the full route (it verifies and remembers), the second from memory. */
const bothWays = async (server: TestServer, call: Call, token: string) => {
  await forgetSessionOf(server, token);
  const before = answeredFromMemory(server);
  const full = await profileOf(call, token);
  expect(answeredFromMemory(server)).toBe(before);
  const fromMemory = await profileOf(call, token);
  expect(answeredFromMemory(server)).toBe(before + 1);
  return { full, fromMemory };
};

describe('answered from memory', () => {
  const { server, call } = useTestServer({ sessionCacheSeconds: 60, corsOrigins: [SITE] });

  it('answers as the full route does: status, body and every header', async () => {
    const account = await signUp(server);
    const { full, fromMemory } = await bothWays(server, call, account.token);
    expect(full.status).toBe(200);
    expect(fromMemory.status).toBe(200);
    expect(fromMemory.body).toEqual(full.body);
    expect(fromMemory.body.id).toBe(account.userId);
    expect(headersBesidesDate(fromMemory)).toEqual(headersBesidesDate(full));
    // The security headers the full route gives JSON answers, checked by name too.
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'cache-control',
      'vary',
    ]) {
      expect(fromMemory.headers.get(name), name).toBeTruthy();
    }
    expect(fromMemory.headers.get('cache-control')).toBe('no-store');
    // Counted in the metrics under the route, as the full route's reads are: both reads so far.
    const metrics = await server.app.ctx.metrics.registry.metrics();
    const counted = metrics
      .split('\n')
      .find(
        (line) =>
          line.startsWith('edupass_http_requests_total{') &&
          line.includes(`route="${PROFILE}"`) &&
          line.includes('"200"'),
      );
    expect(counted?.split(' ').at(-1)).toBe('2');
  });

  it('leaves to the full route a request from a page (Origin), with a query, a HEAD, or a cookie alone', async () => {
    const account = await signUp(server);
    await bothWays(server, call, account.token);
    const before = answeredFromMemory(server);

    const cors = await profileOf(call, account.token, { Origin: SITE });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe(SITE);
    const query = await call('GET', `${PROFILE}?fields=all`, undefined, { token: account.token });
    expect(query.status).toBe(200);
    const head = await fetch(`${server.url}${PROFILE}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(head.status).toBe(200);
    const cookie = await call('GET', PROFILE, undefined, { headers: { cookie: `authorization=${account.token}` } });
    expect(cookie.status).toBe(200);
    expect(answeredFromMemory(server)).toBe(before);
  });

  it('refuses a forged or unknown token through the full route', async () => {
    const account = await signUp(server);
    await bothWays(server, call, account.token);
    const before = answeredFromMemory(server);
    const [header, payload] = account.token.split('.');
    expectError(await profileOf(call, `${header}.${payload}.forged`), '10000000');
    expectError(await profileOf(call, 'not-a-token'), '10000000');
    expect(answeredFromMemory(server)).toBe(before);
  });

  it('after a key rotation: tokens of the old key until they expire, and those of the new one', async () => {
    const account = await signUp(server);
    await bothWays(server, call, account.token);
    await rotateSigningKey(server.app.ctx, true);
    expect((await profileOf(call, account.token)).status).toBe(200);
    const fresh = await signIn(server, account.phone);
    expect(kidOf(fresh.access.token)).not.toBe(kidOf(account.token));
    const { fromMemory } = await bothWays(server, call, fresh.access.token);
    expect(fromMemory.body.id).toBe(account.userId);
  });
});

describe('never past what the full route would refuse', () => {
  it('an expired token, even with its session remembered', async () => {
    let offset = 0;
    const server = await startTestServer({ sessionCacheSeconds: 3_600 }, { now: () => Date.now() + offset });
    try {
      const call = client(server.url);
      const account = await signUp(server);
      // Without CORS origins configured, the same headers too.
      const { full, fromMemory } = await bothWays(server, call, account.token);
      expect(headersBesidesDate(fromMemory)).toEqual(headersBesidesDate(full));
      const before = answeredFromMemory(server);
      offset += (server.config.accessTokenTtlSeconds + 1) * 1000;
      expectError(await profileOf(call, account.token), '10000000');
      expect(answeredFromMemory(server)).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('a draining server answers 503 E_10, not from memory', async () => {
    const server = await startTestServer({ sessionCacheSeconds: 60 });
    try {
      const call = client(server.url);
      const account = await signUp(server);
      await bothWays(server, call, account.token);
      const before = answeredFromMemory(server);
      const drained = server.app.drain();
      const refused = await profileOf(call, account.token);
      expectError(refused, 'E_10');
      expect(answeredFromMemory(server)).toBe(before);
      await drained;
    } finally {
      await server.close();
    }
  });

  it('with request logging on, a read from memory is logged as Fastify logs a request, token unwritten', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const server = await startTestServer({ sessionCacheSeconds: 60 }, { logger: { level: 'info', stream } });
    try {
      const call = client(server.url);
      const account = await signUp(server);
      const { fromMemory } = await bothWays(server, call, account.token);
      expect(fromMemory.status).toBe(200);
      // One line each, when answered: the first by Fastify, the second from memory, alike.
      const [byFastify, byMemory, ...more] = profileReads(lines);
      expect(more).toEqual([]);
      for (const line of [byFastify, byMemory]) {
        expect(line).toMatchObject({ msg: 'request completed', level: 30, res: { statusCode: 200 } });
        expect(line?.reqId).toMatch(UUID);
        expect(typeof line?.responseTime).toBe('number');
      }
      expect(byMemory?.req).toEqual({ ...byFastify?.req, remotePort: expect.any(Number) });
      expect(Object.keys(byMemory ?? {}).sort()).toEqual(Object.keys(byFastify ?? {}).sort());
      expect(lines.join('')).not.toContain(account.token);
    } finally {
      await server.close();
    }
  });

  it('at LOG_LEVEL=debug, a read from memory is also logged as it arrives, as Fastify logs one', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const server = await startTestServer({ sessionCacheSeconds: 60 }, { logger: { level: 'debug', stream } });
    try {
      const call = client(server.url);
      const account = await signUp(server);
      await bothWays(server, call, account.token);
      const read = profileReads(lines).map((line) => [line.msg, line.level, line.reqId]);
      const [first, second] = [read[1]?.[2], read[3]?.[2]];
      expect(read).toEqual([
        ['incoming request', 20, first],
        ['request completed', 30, first],
        ['incoming request', 20, second],
        ['request completed', 30, second],
      ]);
      expect(first).not.toBe(second);
    } finally {
      await server.close();
    }
  });

  it('behind a trusted proxy, a read from memory logs the client address and a request id as Fastify does', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const server = await startTestServer(
      { sessionCacheSeconds: 60, trustProxy: ['loopback'] },
      { logger: { level: 'info', stream } },
    );
    try {
      const call = client(server.url);
      const account = await signUp(server);
      const headers = { 'x-forwarded-for': '203.0.113.7' };
      await forgetSessionOf(server, account.token);
      const before = answeredFromMemory(server);
      expect((await profileOf(call, account.token, headers)).status).toBe(200);
      expect((await profileOf(call, account.token, headers)).status).toBe(200);
      expect(answeredFromMemory(server)).toBe(before + 1);
      const answered = profileReads(lines);
      expect(answered.map((line) => line.req?.remoteAddress)).toEqual(['203.0.113.7', '203.0.113.7']);
      for (const line of answered) expect(line.reqId).toMatch(UUID);
    } finally {
      await server.close();
    }
  });
});

/**
 * Access tokens signed with the asymmetric keys: a relying party verifies them with `jose` from the
 * published JWKS alone; rotation publishes the next key before it signs and keeps the old one until
 * its tokens expire (tokens from before and after both verify, here and in `jose`); HS256 tokens
 * from before the upgrade keep working until they expire; two servers on one database agree on the
 * keys; introspection answers whether a token is live.
 */
import { createHmac } from 'node:crypto';
import { A, client, expectError, PID, signUp, T } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { createRemoteJWKSet, decodeProtectedHeader, type JWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { listKeys, rotateKeys } from '../../cli/signing-keys.ts';
import { INTROSPECTION_PATH, JWKS_PATH } from '../../routes/signing-keys.ts';
import { PUBLICATION_DELAY_MS, rotateSigningKey } from './signing-keys.ts';

const SECRET = 'signing-keys-test-secret-0123456789abcdef';
const INTROSPECTION_SECRET = 'introspection-secret-0123456789abcdef';
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const servers: TestServer[] = [];
const apps: App[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const server of servers) await server.close();
});

const start = async () => {
  const server = await startTestServer(
    {
      jwtSecret: SECRET,
      // Longer than the publication delay: a token from before a rotation is still live after it.
      accessTokenTtlSeconds: 3600,
      products: { [PID]: PID, other: 'other' },
      introspectionSecrets: { [PID]: INTROSPECTION_SECRET, other: INTROSPECTION_SECRET },
    },
    { now },
  );
  servers.push(server);
  return server;
};

const jwksOf = async (server: TestServer) => {
  const response = await fetch(`${server.url}${JWKS_PATH}`);
  return { response, body: (await response.json()) as { keys: JWK[] } };
};

const profileStatus = async (server: TestServer, token: string) =>
  (await client(server.url)('GET', `${A}/profile`, undefined, { token })).status;

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describe('access tokens and the JWKS', () => {
  it('jose verifies an access token from the published JWKS alone: ES256, kid, iss, sub, sid, aud, scope', async () => {
    offsetMs = 0;
    const server = await start();
    const account = await signUp(server);
    const { response, body } = await jwksOf(server);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(body.keys[0]).not.toHaveProperty('d');

    const jwks = createRemoteJWKSet(new URL(`${server.url}${JWKS_PATH}`));
    const { payload, protectedHeader } = await jwtVerify(account.token, jwks, {
      issuer: server.config.publicUrl,
      audience: PID,
      algorithms: ['ES256'],
    });
    expect(protectedHeader.kid).toBe(body.keys[0]?.kid);
    expect(payload).toMatchObject({ sub: String(account.userId), aud: PID, scope: 'account' });
    expect(payload.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(server.config.accessTokenTtlSeconds);
  });

  it('rotation: the next key is published before it signs; tokens from before and after both verify', async () => {
    offsetMs = 0;
    const server = await start();
    const ctx = server.app.ctx;
    const before = await signUp(server);
    const oldKid = kidOf(before.token);
    const jwks = createRemoteJWKSet(new URL(`${server.url}${JWKS_PATH}`), { cooldownDuration: 0 });
    await jwtVerify(before.token, jwks);

    expect(await rotateKeys(ctx, false)).toMatch(
      /^New signing key \S+\. It is published now and signs new tokens from /,
    );
    expect((await jwksOf(server)).body.keys.map((key) => key.kid)).toContain(oldKid);
    expect((await jwksOf(server)).body.keys).toHaveLength(2);
    // Still the old key signs while the new one is being published.
    const during = await signUp(server);
    expect(kidOf(during.token)).toBe(oldKid);
    expect(await listKeys(ctx)).toMatch(/signing .*\n.*next/);

    offsetMs = PUBLICATION_DELAY_MS + 10_000;
    const after = await signUp(server);
    const newKid = kidOf(after.token);
    expect(newKid).not.toBe(oldKid);
    expect(await listKeys(ctx)).toMatch(/retiring[\s\S]*signing/);
    // jose meets a kid it has not seen, fetches the set again and verifies; the old token too.
    for (const token of [before.token, after.token]) {
      await jwtVerify(token, jwks, { currentDate: new Date(now()) });
      expect(await profileStatus(server, token)).toBe(200);
    }
    // The old key leaves the JWKS once its last token has expired.
    offsetMs += server.config.sessionTokenTtlSeconds * 1000 + 10_000;
    expect((await jwksOf(server)).body.keys.map((key) => key.kid)).toEqual([newKid]);
  });

  it('two servers on one database agree: a key rotated at one verifies at the other at once', async () => {
    offsetMs = 0;
    const server = await start();
    const second = await buildApp(server.config, { logger: false, now });
    apps.push(second);
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const address = second.app.server.address();
    const secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const firstKeys = await jwksOf(server);
    const secondKeys = (await (await fetch(`${secondUrl}${JWKS_PATH}`)).json()) as { keys: JWK[] };
    expect(secondKeys).toEqual(firstKeys.body);

    // Two rotations at the same moment: one wins, the other is told so.
    const results = await Promise.allSettled([rotateSigningKey(server.app.ctx), rotateSigningKey(second.ctx)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { code: 'E_1', message: expect.stringMatching(/Another rotation/) },
    });

    await rotateSigningKey(server.app.ctx, true);
    const account = await signUp(server);
    expect(await profileStatus(server, account.token)).toBe(200);
    expect((await client(secondUrl)('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
  });

  it('HS256 tokens from before the upgrade verify until they expire; newer HS256 tokens are refused', async () => {
    offsetMs = 0;
    const server = await start();
    const account = await signUp(server);
    const { sub, sid } = (await jwtVerify(account.token, createRemoteJWKSet(new URL(`${server.url}${JWKS_PATH}`))))
      .payload;
    const key = createHmac('sha256', SECRET).update('jwt').digest();
    const legacy = (iatSeconds: number, ttlSeconds: number) =>
      new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(sub))
        .setIssuedAt(iatSeconds)
        .setExpirationTime(iatSeconds + ttlSeconds)
        .sign(key);
    const nowSeconds = Math.floor(now() / 1000);
    const issuedBefore = await legacy(nowSeconds - 600, 3600);
    expect(await profileStatus(server, issuedBefore)).toBe(200);
    expectError(
      await client(server.url)('GET', `${A}/profile`, undefined, { token: await legacy(nowSeconds + 5, 3600) }),
      '10000000',
    );
    offsetMs = 3600_000;
    expectError(await client(server.url)('GET', `${A}/profile`, undefined, { token: issuedBefore }), '10000000');
    // A long-lived one stops working once the longest token since the upgrade would have expired.
    const longLived = await legacy(nowSeconds - 600, 400 * 86_400);
    offsetMs = 0;
    expect(await profileStatus(server, longLived)).toBe(200);
    offsetMs = server.config.sessionTokenTtlSeconds * 1000 + 60_000;
    expectError(await client(server.url)('GET', `${A}/profile`, undefined, { token: longLived }), '10000000');
  });
});

describe('POST /introspect', () => {
  const basic = (pid: string, secret: string) => `Basic ${Buffer.from(`${pid}:${secret}`).toString('base64')}`;
  const introspect = async (server: TestServer, token: string, authorization = basic(PID, INTROSPECTION_SECRET)) => {
    const response = await fetch(`${server.url}${INTROSPECTION_PATH}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('is active for a live token, and not after sign-out, for another product or a forged token', async () => {
    offsetMs = 0;
    const server = await start();
    const account = await signUp(server);
    const live = await introspect(server, account.token);
    expect(live).toMatchObject({
      status: 200,
      body: { active: true, sub: String(account.userId), aud: PID, client_id: PID, scope: 'account' },
    });
    expect(await introspect(server, account.token, basic('other', INTROSPECTION_SECRET))).toEqual({
      status: 200,
      body: { active: false },
    });
    expect((await introspect(server, `${account.token}x`)).body).toEqual({ active: false });
    await client(server.url)('DELETE', `${T}`, undefined, { token: account.token });
    expect((await introspect(server, account.token)).body).toEqual({ active: false });
  });

  it('refuses a caller without the product secret (E_0) and a body without a token (E_1)', async () => {
    offsetMs = 0;
    const server = await start();
    const account = await signUp(server);
    expect(await introspect(server, account.token, basic(PID, 'wrong'))).toMatchObject({
      status: 403,
      body: { error_code: 'E_0' },
    });
    expect(await introspect(server, account.token, 'Bearer x')).toMatchObject({ status: 403 });
    const empty = await fetch(`${server.url}${INTROSPECTION_PATH}`, {
      method: 'POST',
      headers: { authorization: basic(PID, INTROSPECTION_SECRET), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error_code: 'E_1' });
  });
});

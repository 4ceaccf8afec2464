/**
 * @edupass/node against the real server over HTTP: tokens verify from the JWKS alone, a rotation in
 * the middle is followed (a token naming a key the verifier has not seen makes it fetch the set
 * again), expiry and audience are enforced, and the online check sees a sign-out.
 */

import { client, PID, signUp, T } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { rotateSigningKey } from '@edupass/test-kit/server';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EduPassAuthError } from './errors.ts';
import { createVerifier, type VerifierOptions } from './verifier.ts';

const INTROSPECTION_SECRET = 'node-sdk-introspection-secret-0123456789';
let server: TestServer;
let offsetMs = 0;

beforeAll(async () => {
  server = await startTestServer(
    { introspectionSecrets: { [PID]: INTROSPECTION_SECRET } },
    { now: () => Date.now() + offsetMs },
  );
});
afterAll(() => server?.close());

const verifierFor = (target: TestServer, extra: Partial<VerifierOptions> = {}) =>
  createVerifier({
    issuer: target.config.publicUrl,
    jwksUrl: `${target.url}/.well-known/jwks.json`,
    audience: PID,
    jwksCooldownMs: 0,
    introspection: { url: `${target.url}/introspect`, clientId: PID, clientSecret: INTROSPECTION_SECRET },
    ...extra,
  });

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(EduPassAuthError);
      return error as EduPassAuthError;
    },
  );

describe('createVerifier', () => {
  it('verifies an EduPass access token and answers typed claims', async () => {
    offsetMs = 0;
    const account = await signUp(server);
    const claims = await verifierFor(server).verify(account.token);
    expect(claims).toMatchObject({
      userId: account.userId,
      sub: String(account.userId),
      audience: PID,
      issuer: server.config.publicUrl,
      scopes: ['account'],
    });
    expect(claims.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.expiresAt - claims.issuedAt).toBe(server.config.accessTokenTtlSeconds);
  });

  it('refuses another audience, a forged token, an expired one, and says when the JWKS is unreachable', async () => {
    offsetMs = 0;
    const account = await signUp(server);
    const wrongAudience = await refusalOf(verifierFor(server, { audience: 'another-site' }).verify(account.token));
    expect(wrongAudience).toMatchObject({ code: 'token_invalid', status: 401 });
    const [header, payload] = account.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    expect(await refusalOf(verifierFor(server).verify(forged))).toMatchObject({ code: 'token_invalid' });
    expect(await refusalOf(verifierFor(server).verify('junk'))).toMatchObject({ code: 'token_invalid' });

    offsetMs = -2 * 3600_000;
    const old = await signUp(server);
    offsetMs = 0;
    expect(await refusalOf(verifierFor(server).verify(old.token))).toMatchObject({
      code: 'token_expired',
      status: 401,
    });

    const unreachable = verifierFor(server, { jwksUrl: 'http://127.0.0.1:9/jwks.json' });
    expect(await refusalOf(unreachable.verify(account.token))).toMatchObject({
      code: 'edupass_unavailable',
      status: 503,
    });
  });

  it('answers unavailable (503), not invalid (401), for a new key during the JWKS cool-down', async () => {
    offsetMs = 0;
    const verifier = verifierFor(server, { jwksCooldownMs: 60_000 });
    const before = await signUp(server);
    await verifier.verify(before.token);
    await rotateSigningKey(server.app.ctx, true);
    const after = await signUp(server);
    // The set was fetched a moment ago: the new kid is not fetched again until the cool-down ends.
    const refused = await refusalOf(verifier.verify(after.token));
    expect(refused).toMatchObject({ code: 'edupass_unavailable', status: 503 });
    // A forged kid is unavailable too in that window (a retry then gets the real answer), never valid.
    const [, payload, signature] = before.token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'no-such-key' })).toString('base64url');
    expect(await refusalOf(verifier.verify(`${header}.${payload}.${signature}`))).toMatchObject({ status: 503 });
  });

  it('follows a rotation: tokens from before and after verify with one verifier', async () => {
    offsetMs = 0;
    const verifier = verifierFor(server);
    const before = await signUp(server);
    await verifier.verify(before.token);
    await rotateSigningKey(server.app.ctx, true);
    const after = await signUp(server);
    expect(decodeProtectedHeader(after.token).kid).not.toBe(decodeProtectedHeader(before.token).kid);
    // The verifier holds the set from before the rotation: the new kid makes it fetch again.
    expect((await verifier.verify(after.token)).userId).toBe(after.userId);
    expect((await verifier.verify(before.token)).userId).toBe(before.userId);
  });

  it('online: introspection is active for a live session and not after sign-out', async () => {
    offsetMs = 0;
    const verifier = verifierFor(server);
    const account = await signUp(server);
    expect(await verifier.introspect(account.token)).toMatchObject({ active: true, sub: String(account.userId) });
    expect((await verifier.verifyOnline(account.token)).userId).toBe(account.userId);
    await client(server.url)('DELETE', T, undefined, { token: account.token });
    expect(await verifier.introspect(account.token)).toEqual({ active: false });
    expect(await refusalOf(verifier.verifyOnline(account.token))).toMatchObject({ code: 'token_inactive' });
    // Offline verification cannot see the sign-out: that is what the online check is for.
    expect((await verifier.verify(account.token)).userId).toBe(account.userId);

    const wrongSecret = verifierFor(server, {
      introspection: { url: `${server.url}/introspect`, clientId: PID, clientSecret: 'wrong' },
    });
    expect(await refusalOf(wrongSecret.introspect(account.token))).toMatchObject({ code: 'edupass_unavailable' });
  });
});

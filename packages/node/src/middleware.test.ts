/**
 * The guards in real servers, with tokens from the real EduPass server: a Fastify app (preHandler),
 * a plain node:http server, and Express's `(req, res, next)` contract (Express itself is not
 * installed: a node:http server calls the middleware the way Express does).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, PID, signUp, T } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edupassExpress, edupassFastify, edupassNode, type WithEduPass } from './middleware.ts';
import { createVerifier } from './verifier.ts';

const SECRET = 'node-sdk-middleware-secret-0123456789abc';
let edupass: TestServer;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  edupass = await startTestServer({ introspectionSecrets: { [PID]: SECRET } });
});
afterAll(async () => {
  for (const close of closers) await close();
  await edupass?.close();
});

const verifier = () =>
  createVerifier({
    issuer: edupass.config.publicUrl,
    jwksUrl: `${edupass.url}/.well-known/jwks.json`,
    audience: PID,
    introspection: { url: `${edupass.url}/introspect`, clientId: PID, clientSecret: SECRET },
  });

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const fastifySite = async (online: boolean) => {
  const app = Fastify();
  app.get('/me', { preHandler: edupassFastify(verifier(), { online }) }, async (request) => ({
    user: (request as WithEduPass).edupass?.userId,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

const nodeSite = (online: boolean) =>
  listen(
    createServer(
      edupassNode(verifier(), (_request, response, claims) => response.end(JSON.stringify({ user: claims.userId })), {
        online,
      }),
    ),
  );

/** Express's contract: the middleware, then the route handler when it calls next(). */
const expressSite = (online: boolean) => {
  const guard = edupassExpress(verifier(), { online });
  return listen(
    createServer((request: IncomingMessage & WithEduPass, response: ServerResponse) => {
      guard(request, response, (error?: unknown) => {
        if (error) response.writeHead(500).end();
        else response.end(JSON.stringify({ user: request.edupass?.userId }));
      });
    }),
  );
};

const get = async (url: string, token?: string) => {
  const response = await fetch(`${url}/me`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, auth: response.headers.get('www-authenticate'), body: await response.json() };
};

describe.each([
  ['Fastify', fastifySite],
  ['node:http', nodeSite],
  ['Express', expressSite],
])('%s guard', (_name, site) => {
  it('lets a valid token through with its claims; refuses none, a bad one, another audience', async () => {
    const url = await site(false);
    const account = await signUp(edupass);
    expect(await get(url, account.token)).toMatchObject({ status: 200, body: { user: account.userId } });
    expect(await get(url)).toMatchObject({ status: 401, auth: 'Bearer', body: { error: 'token_missing' } });
    expect(await get(url, `${account.token}x`)).toMatchObject({
      status: 401,
      auth: 'Bearer error="invalid_token", error_description="token_invalid"',
      body: { error: 'token_invalid' },
    });
  });

  it('online: refuses the token once its session is signed out', async () => {
    const url = await site(true);
    const account = await signUp(edupass);
    expect(await get(url, account.token)).toMatchObject({ status: 200, body: { user: account.userId } });
    await client(edupass.url)('DELETE', T, undefined, { token: account.token });
    expect(await get(url, account.token)).toMatchObject({ status: 401, body: { error: 'token_inactive' } });
  });
});

/**
 * The shipped nginx site (deploy/nginx/edupass.conf, run by packages/test-kit/src/nginx.ts as the cluster test
 * runs it) in front of instances that die mid-request: a POST that reached one is not resent (a code
 * send or password change must not run twice), an idempotent request is tried on the next instance,
 * and the client gets the catalogue's 503 E_10 with Retry-After, not nginx's bare 502 page. Also:
 * health paths are not passed to the pool; the test's rewrite of the shipped files throws when they no longer hold what it rewrites.
 */
import { createServer, type Server } from 'node:net';
import { ClientCode, SERVER_ERRORS } from '@edupass/protocol';
import { hasNginx, type Nginx, siteFor, startNginx, upstreamFor } from '@edupass/test-kit/nginx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** An instance that reads a request and dies before answering (the socket closed, no response). */
const dyingInstance = async () => {
  const hits: string[] = [];
  const server: Server = createServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      const line = chunk.toString('latin1').split('\r\n')[0] ?? '';
      // The helper's start-up probe (GET /healthz) is answered, so it counts no failure in nginx.
      if (line.includes('/healthz')) return void socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
      hits.push(line);
      socket.destroy();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, hits, close: () => new Promise<void>((done) => server.close(() => done())) };
};

describe.runIf(hasNginx())('the shipped nginx site', () => {
  let nginx: Nginx;
  let instances: Awaited<ReturnType<typeof dyingInstance>>[];

  // A fresh nginx per case: its failure counts (max_fails) start from nothing.
  beforeEach(async () => {
    instances = [await dyingInstance(), await dyingInstance()];
    nginx = await startNginx(instances.map((i) => i.port));
  });
  afterEach(async () => {
    await nginx?.stop();
    for (const instance of instances ?? []) await instance.close();
  });

  const expectUnavailable = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = (await response.json()) as Record<string, unknown>;
    const spec = SERVER_ERRORS.E_10;
    expect(body).toEqual({
      error_code: 'E_10',
      error_message: spec.message,
      error_number: ClientCode[spec.client],
      error_category: spec.category,
      log_uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  };

  it('does not resend a POST that reached an instance, and answers 503 E_10 with Retry-After', async () => {
    const response = await fetch(`${nginx.url}/accounts/captcha/common`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(20_000),
    });
    await expectUnavailable(response);
    expect(instances.flatMap((i) => i.hits)).toEqual(['POST /accounts/captcha/common HTTP/1.1']);
  });

  it('keeps the health paths out of the pool: answered by nginx (404 E_2), no instance asked', async () => {
    for (const path of ['/readyz', '/healthz']) {
      const response = await fetch(`${nginx.url}${path}`, { signal: AbortSignal.timeout(20_000) });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error_code: 'E_2',
        error_number: ClientCode[SERVER_ERRORS.E_2.client],
      });
    }
    expect(instances.flatMap((i) => i.hits)).toEqual([]);
  });

  it('tries an idempotent request on the next instance before answering 503 E_10', async () => {
    const response = await fetch(`${nginx.url}/accounts/profile`, { signal: AbortSignal.timeout(20_000) });
    await expectUnavailable(response);
    expect(instances.map((i) => i.hits)).toEqual([
      ['GET /accounts/profile HTTP/1.1'],
      ['GET /accounts/profile HTTP/1.1'],
    ]);
  });
});

describe('the rewrite of the shipped nginx files for a test', () => {
  it('throws when the site has no listen line or does not proxy to the generated upstream', () => {
    expect(() => siteFor('server { location / { proxy_pass http://edupass; } }\n', 1)).toThrow(/no listen line/);
    expect(() => siteFor('server {\n    listen 80;\n    location / { proxy_pass http://other; }\n}\n', 1)).toThrow(
      /proxy_pass/,
    );
  });

  it('throws when the upstream file has no edupass block or no loopback server line', () => {
    expect(() => upstreamFor('upstream other {\n    server 127.0.0.1:8081;\n}\n', [1])).toThrow(/upstream edupass/);
    expect(() => upstreamFor('upstream edupass {\n    server edupass-1:8080;\n}\n', [1])).toThrow(/server 127/);
  });
});

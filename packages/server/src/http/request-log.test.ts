/**
 * The request log (http/request-log.ts): at LOG_LEVEL=info one line per request as it is answered,
 * holding the request, the status and the time; at debug also a line as it arrives.
 */
import { startTestServer } from '@edupass/test-kit/harness';
import { requestLines } from '@edupass/test-kit/request-log';
import { describe, expect, it } from 'vitest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A server logging at `level` into `lines`, closed after `run`. */
const withLog = async (level: string, run: (url: string, lines: string[]) => Promise<void>) => {
  const lines: string[] = [];
  const server = await startTestServer({}, { logger: { level, stream: { write: (line) => lines.push(line) } } });
  try {
    await run(server.url, lines);
  } finally {
    await server.close();
  }
};

describe('request log', () => {
  it('writes one line per request as it is answered, with the request, status and time', async () => {
    await withLog('info', async (url, lines) => {
      const host = new URL(url).host;
      expect((await fetch(`${url}/healthz?ticket=t-123&n=1`)).status).toBe(200);
      expect((await fetch(`${url}/tiger/v3/web/nosuch`)).status).toBe(404);
      const healthz = requestLines(lines, (u) => u.startsWith('/healthz'));
      expect(healthz).toHaveLength(1);
      expect(healthz[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: '/healthz?ticket=[redacted]&n=1', host, remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
      });
      expect(healthz[0]?.reqId).toMatch(UUID);
      expect(healthz[0]?.responseTime).toBeGreaterThan(0);
      const missing = requestLines(lines, (u) => u === '/tiger/v3/web/nosuch');
      expect(missing.map((line) => [line.msg, line.res?.statusCode])).toEqual([['request completed', 404]]);
      expect(lines.join('')).not.toContain('t-123');
    });
  });

  it("names a sign-in provider's request by the path it was asked on, its bearer values redacted", async () => {
    await withLog('info', async (url, lines) => {
      expect((await fetch(`${url}/oidc/.well-known/openid-configuration`)).status).toBe(200);
      const authorize = `/oidc/auth?client_id=nosuch&response_type=code&scope=openid&state=s-123`;
      expect((await fetch(`${url}${authorize}`, { redirect: 'manual' })).status).toBe(400);
      // The provider is handed the path below /oidc; the log keeps the one the client asked for.
      expect(requestLines(lines, (u) => u.includes('openid-configuration')).map((line) => line.req?.url)).toEqual([
        '/oidc/.well-known/openid-configuration',
      ]);
      expect(requestLines(lines, (u) => u.includes('/auth?')).map((line) => line.req?.url)).toEqual([
        authorize.replace('s-123', '[redacted]'),
      ]);
      expect(lines.join('')).not.toContain('s-123');
    });
  });

  it('at debug, also writes a line as each request arrives, under the same request id', async () => {
    await withLog('debug', async (url, lines) => {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const healthz = requestLines(lines, (u) => u === '/healthz');
      expect(healthz.map((line) => [line.msg, line.level])).toEqual([
        ['incoming request', 20],
        ['request completed', 30],
      ]);
      expect(healthz[0]?.reqId).toBe(healthz[1]?.reqId);
      expect(healthz[0]?.req).toEqual(healthz[1]?.req);
    });
  });
});

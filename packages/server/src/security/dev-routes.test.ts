/**
 * Development features only on purpose: live codes (/dev/outbox) and the development WeChat/QQ are
 * served on loopback in development, and there only to requests made on the machine itself (not
 * through a proxy in front of it, not under another host name); to everyone only with DEV_ROUTES=1
 * (logged loudly); never in production. Without them the codes are in the log for the person at the
 * machine. The development provider sends codes to this site only.
 */

import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { A, client, codeFor, expectError, nextPhone, PID } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { hasNginx, type Nginx, startNginx } from '@edupass/test-kit/nginx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';

/** The parts of a configuration that decide the development features, as loadConfig reads them. */
const devPartsOf = (env: Record<string, string>): Partial<Config> => {
  const { devRoutes, devRoutesForAnyone, wechat, qq, host, production } = loadConfig(env);
  return { devRoutes, devRoutesForAnyone, wechat, qq, host, production };
};

/** A server whose log lines are kept (parsed JSON) for the test to read. */
const startLogged = async (overrides: Partial<Config>) => {
  const lines: { msg?: string; code?: string; devRoutes?: boolean }[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const server = await startTestServer(overrides, { logger: { level: 'info', stream } });
  return { server, lines };
};

describe('configuration', () => {
  it('development binds loopback and has the development routes; production binds everywhere without them', () => {
    expect(loadConfig({})).toMatchObject({ host: '127.0.0.1', devRoutes: true, wechat: { mode: 'dev' } });
    const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40) });
    expect(production).toMatchObject({ host: '0.0.0.0', devRoutes: false, wechat: { mode: 'off' } });
  });

  it('development on a network address has no development routes unless DEV_ROUTES=1', () => {
    expect(loadConfig({ HOST: '0.0.0.0' })).toMatchObject({ devRoutes: false, wechat: { mode: 'off' } });
    expect(loadConfig({ HOST: '192.168.1.20' })).toMatchObject({ devRoutes: false, qq: { mode: 'off' } });
    expect(loadConfig({ HOST: '0.0.0.0', DEV_ROUTES: '1' })).toMatchObject({
      devRoutes: true,
      wechat: { mode: 'dev' },
    });
    expect(loadConfig({ HOST: '::1' }).devRoutes).toBe(true);
    expect(loadConfig({ DEV_ROUTES: '0' }).devRoutes).toBe(false);
  });

  it('DEV_ROUTES=1 with NODE_ENV=production does not start', () => {
    try {
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), DEV_ROUTES: '1' });
      expect.unreachable('loadConfig accepted DEV_ROUTES=1 in production');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(/DEV_ROUTES=1 with NODE_ENV=production.*Fix: unset/);
    }
  });
});

describe('development on a network address (HOST=0.0.0.0), no opt-in', () => {
  let running: { server: TestServer; lines: { msg?: string; code?: string; devRoutes?: boolean }[] };
  beforeAll(async () => {
    running = await startLogged(devPartsOf({ HOST: '0.0.0.0' }));
  });
  afterAll(() => running?.server.close());

  it('serves no live codes and no development provider, and says so at start', async () => {
    const call = client(running.server.url);
    expectError(await call('GET', `/dev/outbox?to=${nextPhone()}`), 'E_2');
    const wechat = await fetch(`${running.server.url}/dev/oauth/wechat/connect/qrconnect?appid=x`);
    expect(wechat.status).toBe(404);
    expect(running.lines.some((l) => l.devRoutes === false && /development routes off/.test(l.msg ?? ''))).toBe(true);
  });

  it('prints the code of a send in the log, for the person at the machine', async () => {
    const phone = nextPhone();
    const sent = await client(running.server.url)('POST', `${A}/captcha/common`, { phone_number: phone, pid: PID });
    expect(sent.status).toBe(204);
    await expect
      .poll(() => running.lines.find((l) => l.msg === 'code written to the dev outbox')?.code)
      .toMatch(/^\d{4,8}$/);
  });
});

describe('development with DEV_ROUTES=1 on a network address', () => {
  let running: { server: TestServer; lines: { msg?: string; devRoutes?: boolean }[] };
  beforeAll(async () => {
    running = await startLogged(devPartsOf({ HOST: '0.0.0.0', DEV_ROUTES: '1' }));
  });
  afterAll(() => running?.server.close());

  it('serves the codes, and warns loudly at start', async () => {
    const phone = nextPhone();
    const code = await codeFor(running.server, 'captcha/common', { phone_number: phone, pid: PID });
    expect(code).toMatch(/^\d+$/);
    const warning = running.lines.find((l) => l.devRoutes === true);
    expect(warning?.msg).toMatch(/DEVELOPMENT ROUTES ARE OPEN TO THE NETWORK/);
  });
});

describe('production', () => {
  it('has neither /dev/outbox nor the development providers, nor codes in the log or the outbox table', async () => {
    const { server, lines } = await startLogged(devPartsOf({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40) }));
    try {
      const call = client(server.url);
      expectError(await call('GET', `/dev/outbox?to=${nextPhone()}`), 'E_2');
      expect((await fetch(`${server.url}/dev/oauth/qq/oauth2.0/authorize`)).status).toBe(404);
      expect((await call('POST', `${A}/captcha/common`, { phone_number: nextPhone(), pid: PID })).status).toBe(204);
      await expect.poll(() => lines.some((l) => l.msg === 'code written to the dev outbox')).toBe(true);
      expect(lines.filter((l) => l.msg === 'code written to the dev outbox').every((l) => l.code === undefined)).toBe(
        true,
      );
      // Nor does the outbox table keep a live code.
      const rows = await server.app.ctx.db.selectFrom('outbox').select(['code', 'text']).execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.code).toBe('');
        expect(row.text).not.toMatch(/\d{6}/);
      }
    } finally {
      await server.close();
    }
  });
});

describe('the development OAuth provider', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    server.config.publicUrl = server.url;
  });
  afterAll(() => server?.close());

  const confirm = (redirectUri: string) => {
    const query = new URLSearchParams({
      appid: server.config.wechat.appId,
      redirect_uri: redirectUri,
      state: 's',
      identity: 'Ming',
    });
    return fetch(`${server.url}/dev/oauth/wechat/connect/confirm?${query}`, { redirect: 'manual' });
  };
  const screen = (redirectUri: string) => {
    const query = new URLSearchParams({
      appid: server.config.wechat.appId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_login',
      state: 's',
    });
    return fetch(`${server.url}/dev/oauth/wechat/connect/qrconnect?${query}`);
  };

  it('sends the code back to this site', async () => {
    const answer = await confirm(`${server.url}/tiger/v3/web/accounts/oauth/wechat/callback`);
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get('location') ?? '').origin).toBe(server.url);
  });

  it.each(['https://attacker.example/steal', 'http://127.0.0.1:1/elsewhere', 'javascript:alert(1)'])(
    'refuses to send a code to %s',
    async (target) => {
      const answer = await confirm(target);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect((await screen(target)).status).toBe(400);
    },
  );

  it('refuses QQ codes for another site too', async () => {
    const query = new URLSearchParams({
      client_id: server.config.qq.appId,
      redirect_uri: 'https://attacker.example/qq',
      state: 's',
      identity: 'Ming',
    });
    const answer = await fetch(`${server.url}/dev/oauth/qq/oauth2.0/confirm?${query}`, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });
});

describe.runIf(hasNginx())(
  'development on loopback behind a proxy on the same machine (the shipped nginx site)',
  () => {
    let direct: TestServer;
    let open: TestServer;
    let nginx: Nginx;
    let openNginx: Nginx;
    beforeAll(async () => {
      [direct, open] = await Promise.all([startTestServer(), startTestServer(devPartsOf({ DEV_ROUTES: '1' }))]);
      const port = (server: TestServer) => Number(new URL(server.url).port);
      [nginx, openNginx] = await Promise.all([startNginx([port(direct)]), startNginx([port(open)])]);
    });
    afterAll(async () => {
      await Promise.all([nginx?.stop(), openNginx?.stop()]);
      await Promise.all([direct?.close(), open?.close()]);
    });

    /** The outbox's status; node:http, since fetch sends the Host of the URL whatever it is given. */
    const outbox = (base: string, headers: Record<string, string> = {}) =>
      new Promise<number>((done, failed) =>
        httpGet(`${base}/dev/outbox?to=${nextPhone()}`, { headers }, (answer) => {
          answer.resume();
          done(answer.statusCode ?? 0);
        }).on('error', failed),
      );

    it('answers the live codes on this machine only: not through nginx, under another host name or with forwarding headers', async () => {
      expect(await outbox(direct.url)).toBe(200);

      expect(await outbox(nginx.url)).toBe(404);
      const proxied = await fetch(`${nginx.url}/dev/outbox?to=${nextPhone()}`);
      const refusal = (await proxied.json()) as { error_code: string; error_message: string };
      expect(refusal.error_code).toBe('E_2');
      expect(refusal.error_message).toMatch(/made on the server's own machine only.*Fix: .*DEV_ROUTES=1/);
      // Nor does the development WeChat sign anyone in through it.
      expect((await fetch(`${nginx.url}/dev/oauth/wechat/connect/qrconnect?appid=x`)).status).toBe(404);

      // A page that rebinds its own host name to 127.0.0.1 sends that name; a proxy says who asked.
      const suspicious: Record<string, string>[] = [
        { host: 'attacker.example' },
        { 'x-forwarded-for': '203.0.113.9' },
        { forwarded: 'for=203.0.113.9' },
        { 'x-real-ip': '203.0.113.9' },
      ];
      for (const headers of suspicious) expect(await outbox(direct.url, headers), JSON.stringify(headers)).toBe(404);
      expect(await outbox(direct.url, { host: `localhost:${new URL(direct.url).port}` })).toBe(200);
    });

    it("refuses what nginx sends upstream by default (proxy_pass to the server's address alone): HTTP/1.0, its Host, no forwarding header", async () => {
      const { hostname, port } = new URL(direct.url);
      const head = await new Promise<string>((done, failed) => {
        const socket = connect(Number(port), hostname, () =>
          socket.write(
            `GET /dev/outbox?to=${nextPhone()} HTTP/1.0\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let answer = '';
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
        });
        socket.on('end', () => done(answer.split('\r\n')[0] ?? ''));
        socket.on('error', failed);
      });
      expect(head).toMatch(/^HTTP\/1\.[01] 404 /);
    });

    it('with DEV_ROUTES=1, answers through the proxy too (the opt-in, warned about at start)', async () => {
      expect(await outbox(openNginx.url)).toBe(200);
    });
  },
);

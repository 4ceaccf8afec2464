/**
 * WeChat and QQ providers that answer badly or are not set up: another WeChat appid, the providers'
 * error dialects from a local peer (C_1 / C_2), and AC3_19 without credentials.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import type { TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { providerReturn, startOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OauthProviderName } from '../../adapters/oauth-provider.ts';
import { expectError, nextIdentity, PID, useOauthServer } from './oauth.test-setup.ts';

const now = Date.now();
const { server, call } = useOauthServer(() => now);

describe('WeChat appid', () => {
  it('a code step naming another WeChat app is C_2; this server’s appid is accepted', async () => {
    const back = await providerReturn(server, 'wechat', nextIdentity());
    const post = (appid: string) =>
      call(
        'POST',
        `${A}/oauth/wechat`,
        { code: back.code, state: back.state, pid: PID, appid },
        {
          headers: { cookie: back.cookie },
        },
      );
    expectError(await post('wx-some-other-app'), 'C_2');
    expect((await post(server.config.wechat.appId)).status).toBe(200);
  });
});

describe('provider failures', () => {
  let peer: Server;
  let peerUrl: string;
  /** What the peer does next: a body to answer with, or 'hang' to never answer. */
  let behaviour: string | 'hang' = '';
  let failing: TestServer;
  let failingCall: ReturnType<typeof client>;

  beforeAll(async () => {
    peer = createServer((_request, response) => {
      if (behaviour === 'hang') return;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(behaviour);
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
    const base = await startOauthTestServer();
    // Browsers still go to the development screens; the code exchange goes to the failing peer.
    failing = await startOauthTestServer({
      // Long enough that a loaded machine's slow answer is not read as none; the hanging peer costs this twice.
      oauthTimeoutMs: 3000,
      wechat: { ...base.config.wechat, apiBase: peerUrl },
      qq: { ...base.config.qq, apiBase: peerUrl },
    });
    await base.close();
    failingCall = client(failing.url);
  });
  afterAll(async () => {
    peer.closeAllConnections();
    await new Promise((resolve) => peer.close(resolve));
    await failing.close();
  });

  const attempt = async (provider: OauthProviderName) => {
    const back = await providerReturn(failing, provider, '小红');
    return failingCall(
      'POST',
      `${A}/oauth/${provider}`,
      { code: back.code, state: back.state, pid: PID },
      {
        headers: { cookie: back.cookie },
      },
    );
  };

  it('a WeChat errcode body is C_2 with the provider’s reason', async () => {
    behaviour = '{"errcode":40029,"errmsg":"invalid code, hints: [ req_id: x ]"}';
    const answer = await attempt('wechat');
    expectError(answer, 'C_2');
    expect((answer.body as { error_message: string }).error_message).toContain('40029');
  });

  it('a QQ JSONP error is C_1', async () => {
    behaviour = 'callback( {"error":100019,"error_description":"code to access token error"} );\n';
    const answer = await attempt('qq');
    expectError(answer, 'C_1');
    expect((answer.body as { error_message: string }).error_message).toContain('100019');
  });

  it('an unreadable answer is C_2 / C_1', async () => {
    behaviour = '<html>502 Bad Gateway</html>';
    expectError(await attempt('wechat'), 'C_2');
    expectError(await attempt('qq'), 'C_1');
  });

  it('a provider that does not answer in time is C_2 / C_1', async () => {
    behaviour = 'hang';
    const wechat = await attempt('wechat');
    expectError(wechat, 'C_2');
    expect((wechat.body as { error_message: string }).error_message).toMatch(/in time/);
    expectError(await attempt('qq'), 'C_1');
  });
});

describe('a provider that is not set up', () => {
  it('answers AC3_19 at every step (production without credentials)', async () => {
    const off = await startOauthTestServer();
    try {
      const offCall = client(off.url);
      const back = await providerReturn(off, 'wechat', '小明');
      off.config.wechat = { ...off.config.wechat, mode: 'off' };
      expectError(
        await offCall('GET', `${A}/oauth/wechat/authorize?redirect=${encodeURIComponent(`${off.url}/cb`)}`),
        'AC3_19',
      );
      const body = { code: back.code, state: back.state, pid: PID };
      expectError(await offCall('POST', `${A}/oauth/wechat`, body, { headers: { cookie: back.cookie } }), 'AC3_19');
      const owner = (await offCall('POST', `${A}/oauth/qq`, {}, {})).status;
      expect(owner).toBe(400);
    } finally {
      await off.close();
    }
  });
});

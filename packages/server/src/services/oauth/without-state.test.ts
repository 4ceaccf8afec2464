/**
 * WeChat/QQ code steps without EduPass's `state`, for products whose own front end runs the provider
 * redirect: refused by default, accepted where OAUTH_WITHOUT_STATE or the console's switch allows
 * (the console's choice winning, each change audited). A state that is sent is still checked.
 */
import { ACCOUNTS_BASE as A, type AuditEntry, type LoginResult, type OauthStateSetting } from '@edupass/protocol';
import { auditorToken, expectError, nextPhone, PID, signInOperator, signUp } from '@edupass/test-kit/accounts';
import type { TestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { providerReturn, startOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OauthProviderName } from '../../adapters/oauth-provider.ts';
import type { Config } from '../../config/config.ts';

let identityCounter = 0;
const nextIdentity = () => `无态${Date.now().toString(36).slice(-4)}${++identityCounter}`;

/** A server for a describe block, with `overrides` on its configuration. */
const useOauthServer = (overrides: Partial<Config> = {}) => {
  const handle = {} as { server: TestServer; call: ReturnType<typeof client> };
  beforeAll(async () => {
    handle.server = await startOauthTestServer(overrides);
    handle.call = client(handle.server.url);
  });
  afterAll(() => handle.server.close());
  return handle;
};

/**
 * What a site's own front end has after running the provider redirect itself: a code (the test gets it
 * through the development provider, then sends neither the state nor the state cookie). QQ codes are
 * issued to `redirectUri`, which the code exchange must repeat.
 */
const frontEndCode = async (server: TestServer, provider: OauthProviderName, identity: string, redirectUri?: string) =>
  (await providerReturn(server, provider, identity, redirectUri ?? `${server.url}/`)).code;

/** The specification's body: `{code, pid, appid, agreement_ids}`, no state. */
const codeLogin = (
  h: { server: TestServer; call: ReturnType<typeof client> },
  provider: OauthProviderName,
  code: string,
  extra = {},
) =>
  h.call('POST', `${A}/oauth/${provider}`, {
    code,
    pid: PID,
    appid: h.server.config.wechat.appId,
    agreement_ids: [-1],
    ...extra,
  });

const expectTicket = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toEqual({ oauth_ticket: expect.any(String), user_exists: false });
};

describe.each(['wechat', 'qq'] as const)('%s code steps without state', (provider) => {
  describe('by default (off)', () => {
    const h = useOauthServer();
    it('a code without state is refused (AC3_16), sign-in and bind alike', async () => {
      expectError(await codeLogin(h, provider, await frontEndCode(h.server, provider, nextIdentity())), 'AC3_16');
      const account = await signUp(h.server);
      const code = await frontEndCode(h.server, provider, nextIdentity());
      expectError(await h.call('POST', `${A}/oauth/${provider}/bind`, { code }, { token: account.token }), 'AC3_16');
    });
  });

  describe('with OAUTH_WITHOUT_STATE naming the product', () => {
    const h = useOauthServer({ oauthWithoutState: [PID] });

    it('signs in with the specification body alone; the new user gets a usable account', async () => {
      const identity = nextIdentity();
      const first = await codeLogin(h, provider, await frontEndCode(h.server, provider, identity));
      expectTicket(first);
      const { oauth_ticket } = first.body as { oauth_ticket: string };
      const created = await h.call('POST', `${A}/oauth/third-party`, { oauth_ticket, agreement_ids: [-1] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect((created.body as LoginResult).user_info.nickname).toBe(identity);
      // Linked: the next code-only sign-in signs straight in.
      const again = await codeLogin(h, provider, await frontEndCode(h.server, provider, identity));
      expect(again.status).toBe(200);
      expect(again.body).toHaveProperty('auth');
    });

    it('a provider nickname someone already has gives the new account a default one (用户 + 8 digits)', async () => {
      const identity = nextIdentity();
      const taken = await signUp(h.server);
      await h.call('PATCH', `${A}/info`, { nickname: identity }, { token: taken.token });
      const first = await codeLogin(h, provider, await frontEndCode(h.server, provider, identity));
      const { oauth_ticket } = first.body as { oauth_ticket: string };
      const created = await h.call('POST', `${A}/oauth/third-party`, { oauth_ticket });
      expect((created.body as LoginResult).user_info.nickname).toMatch(/^用户\d{8}$/);
    });

    it('binds with a code alone', async () => {
      const account = await signUp(h.server);
      const code = await frontEndCode(h.server, provider, nextIdentity());
      const bound = await h.call('POST', `${A}/oauth/${provider}/bind`, { code }, { token: account.token });
      expect(bound.status, JSON.stringify(bound.body)).toBe(204);
      const list = (await h.call('GET', `${A}/oauths`, undefined, { token: account.token })).body as {
        name: string;
        is_bound: boolean;
      }[];
      expect(list.find((o) => o.name === provider)?.is_bound).toBe(true);
    });

    it('a state that is sent is still checked (a forged one is AC3_16)', async () => {
      const code = await frontEndCode(h.server, provider, nextIdentity());
      expectError(await codeLogin(h, provider, code, { state: 'forged' }), 'AC3_16');
    });

    it('another product still needs the state', async () => {
      await h.server.app.ctx.db.insertInto('products').values({ pid: 'other', product_code: 'other' }).execute();
      const code = await frontEndCode(h.server, provider, nextIdentity());
      expectError(await codeLogin(h, provider, code, { pid: 'other' }), 'AC3_16');
    });

    if (provider === 'qq') {
      it('QQ: the front end names the page it sent QQ back to (redirect_uri); it must be this site', async () => {
        const page = `${h.server.url}/sign-in/qq-callback`;
        const code = await frontEndCode(h.server, provider, nextIdentity(), page);
        expectTicket(await codeLogin(h, provider, code, { redirect_uri: page }));
        const elsewhere = await frontEndCode(h.server, provider, nextIdentity(), page);
        expectError(await codeLogin(h, provider, elsewhere, { redirect_uri: 'https://evil.example/cb' }), 'E_1');
      });
    }
  });
});

describe('the console switch', () => {
  const h = useOauthServer();
  const settings = async (token: string) => {
    const answer = await h.call('GET', '/admin/oauth', undefined, { token });
    expect(answer.status).toBe(200);
    return answer.body as OauthStateSetting[];
  };

  it('turns code steps without state on and off per product, over configuration, each change audited', async () => {
    const operator = await signInOperator(h.server, nextPhone());
    const token = operator.token;
    expect((await settings(token)).find((s) => s.pid === PID)).toEqual({
      pid: PID,
      operator: null,
      configured: false,
      effective: false,
    });

    const on = await h.call('POST', '/admin/oauth/without-state', { pid: PID, enabled: true }, { token });
    expect(on.status, JSON.stringify(on.body)).toBe(204);
    expect((await settings(token)).find((s) => s.pid === PID)).toMatchObject({ operator: true, effective: true });
    expectTicket(await codeLogin(h, 'wechat', await frontEndCode(h.server, 'wechat', nextIdentity())));

    // The console's "off" wins even over configuration that says on.
    h.server.config.oauthWithoutState = ['*'];
    expect((await h.call('POST', '/admin/oauth/without-state', { pid: PID, enabled: false }, { token })).status).toBe(
      204,
    );
    expectError(await codeLogin(h, 'wechat', await frontEndCode(h.server, 'wechat', nextIdentity())), 'AC3_16');

    // Cleared: configuration applies again.
    expect((await h.call('POST', '/admin/oauth/without-state/clear', { pid: PID }, { token })).status).toBe(204);
    expect((await settings(token)).find((s) => s.pid === PID)).toEqual({
      pid: PID,
      operator: null,
      configured: true,
      effective: true,
    });
    expectTicket(await codeLogin(h, 'wechat', await frontEndCode(h.server, 'wechat', nextIdentity())));
    h.server.config.oauthWithoutState = [];

    const audit = (await h.call('GET', '/admin/audit', undefined, { token: await auditorToken(h.server) }))
      .body as AuditEntry[];
    const mine = audit.filter((e) => e.action.startsWith('oauth.')).map((e) => [e.action, e.target, e.detail]);
    expect(mine).toEqual([
      ['oauth.without-state.clear', `product:${PID}`, ''],
      ['oauth.without-state.set', `product:${PID}`, 'off'],
      ['oauth.without-state.set', `product:${PID}`, 'on'],
    ]);
  });

  it('refuses an unknown product (AC3_24) and a non-operator (E_4)', async () => {
    const operator = await signInOperator(h.server, nextPhone());
    expectError(
      await h.call('POST', '/admin/oauth/without-state', { pid: 'nope', enabled: true }, { token: operator.token }),
      'AC3_24',
    );
    const user = await signUp(h.server);
    expectError(
      await h.call('POST', '/admin/oauth/without-state', { pid: PID, enabled: true }, { token: user.token }),
      'E_4',
    );
  });
});

/**
 * Third-party sign-in through the SDK against the real server and its development WeChat/QQ provider,
 * plus the calls that need a captcha ticket or a password-less account.
 */
import { ClientCode } from '@edupass/protocol';
import type { TestServer } from '@edupass/test-kit/harness';
import { pickIdentity, startOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from './index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startOauthTestServer();
});
afterAll(() => server?.close());

let counter = Math.floor(Math.random() * 10_000_000);
const nextPhone = () => `134${String(++counter % 100_000_000).padStart(8, '0')}`;

/** A client with a cookie jar, as a browser would keep the oauth state cookie between the two steps. */
const newClient = () => {
  const jar = new Map<string, string>();
  return sdk.createAccountClient({
    pid: 'edupass',
    appid: server.config.wechat.appId,
    product_code: 'edupass',
    platform: 'web',
    auth_version: 2,
    host: { tiger: server.url },
    storage: sdk.memoryTokenStore(),
    fetch: async (url, init) => {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), ...(cookie && { cookie }) },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const value = pair.slice(eq + 1);
        if (value === '' || /max-age=0/i.test(line)) jar.delete(pair.slice(0, eq));
        else jar.set(pair.slice(0, eq), value);
      }
      return response;
    },
  });
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => error as sdk.AuthError,
  );

/** authorize → the provider's screen → back to the site with code and state. */
const providerCode = async (client: sdk.AccountClient, provider: 'wechat' | 'qq', identity: string) => {
  const start = provider === 'wechat' ? sdk.authorizeWechat : sdk.authorizeQQ;
  const { url, state } = await start(client, { redirect: `${server.url}/callback/${provider}` });
  const back = new URL(await pickIdentity(url, identity));
  expect(back.searchParams.get('state')).toBe(state);
  return { code: back.searchParams.get('code') ?? '', state };
};

describe('WeChat and QQ', () => {
  it('an unlinked WeChat account gets an oauth_ticket; a phone code binds it and signs in', async () => {
    const client = newClient();
    const identity = `wx-${counter++}`;
    const pending = await sdk.loginByWechat(client, await providerCode(client, 'wechat', identity));
    expect(pending).toMatchObject({ oauth_ticket: expect.any(String), user_exists: false });
    expect(pending).not.toHaveProperty('auth');
    expect(client.tokens.get()).toEqual({});
    const { oauth_ticket } = pending as { oauth_ticket: string };
    expect(await sdk.checkOauthBind(client, { oauth_ticket })).toEqual(expect.any(Object));
    const phone = nextPhone();
    await sdk.sendOauthBindCode(client, { phone_number: phone, oauth_ticket });
    const captcha = (await server.lastCode(phone)) ?? '';
    const signedIn = await sdk.createOauthUser(client, { oauth_ticket, phone_number: phone, captcha });
    expect(signedIn).toMatchObject({ user_info: { id: expect.any(Number) }, auth: expect.any(Object) });
    expect(client.tokens.get().access).toBeDefined();
    expect((await sdk.listOauths(client)).find((o) => o.name === 'wechat')?.is_bound).toBe(true);

    // The linked account now signs in at once.
    const again = newClient();
    const result = await sdk.loginByWechat(again, await providerCode(again, 'wechat', identity));
    expect(result).toMatchObject({ user_info: { id: (signedIn as { user_info: { id: number } }).user_info.id } });
    expect(again.tokens.get().access).toBeDefined();

    // QQ binds to the signed-in user, then both unbind.
    await sdk.bindQQ(client, await providerCode(client, 'qq', `qq-${counter++}`));
    expect((await sdk.listOauths(client)).every((o) => o.is_bound)).toBe(true);
    await sdk.unbindQQ(client);
    await sdk.unbindWechat(client);
    expect((await sdk.listOauths(client)).some((o) => o.is_bound)).toBe(false);
  });

  it('bindWechat binds a WeChat account to a signed-in phone user', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendSilentLoginCode(client, { phone_number: phone });
    await sdk.loginByPhoneSilently(client, { phone_number: phone, captcha: (await server.lastCode(phone)) ?? '' });
    await sdk.bindWechat(client, await providerCode(client, 'wechat', `wx-${counter++}`));
    expect((await sdk.listOauths(client)).find((o) => o.name === 'wechat')?.is_bound).toBe(true);
  });

  it('a code without its state, and a bogus oauth_ticket, are refused', async () => {
    const client = newClient();
    const { code } = await providerCode(client, 'wechat', `wx-${counter++}`);
    expect(await failure(sdk.loginByWechat(client, { code, state: 'forged' }))).toMatchObject({
      serverCode: expect.any(String),
      status: expect.any(Number),
    });
    expect(await failure(sdk.checkOauthBind(client, { oauth_ticket: 'bogus' }))).toMatchObject({
      code: ClientCode.ILLEGAL_OAUTH_TICKET,
      serverCode: 'AC3_18',
    });
    expect(await failure(sdk.createOauthUser(client, { oauth_ticket: 'bogus' }))).toMatchObject({
      code: ClientCode.ILLEGAL_OAUTH_TICKET,
    });
  });
});

describe('captcha ticket and password-less accounts', () => {
  it('loginByPasswordSecure carries the captcha ticket of the rule', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendRegisterCode(client, { phone_number: phone });
    await sdk.registerByPhone(client, {
      phone_number: phone,
      captcha: (await server.lastCode(phone)) ?? '',
      password: 'Kestrel2718',
    });
    const rule = (await (
      await fetch(`${server.url}/captcha/rule/v3`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          identity: phone,
          scene: 'login',
          pid: 'edupass',
          timestamp: Math.floor(Date.now() / 1000),
        }),
      })
    ).json()) as { rule: string; ticket: string };
    expect(rule.rule).toBe('DEFAULT');
    const fresh = newClient();
    const result = await sdk.loginByPasswordSecure(
      fresh,
      { identity: phone, password: 'Kestrel2718' },
      { ticket: rule.ticket },
    );
    expect(result.user_info.id).toEqual(expect.any(Number));
    expect(
      await failure(
        sdk.loginByPasswordSecure(newClient(), { identity: phone, password: 'Kestrel2718' }, { ticket: 'forged' }),
      ),
    ).toMatchObject({ code: ClientCode.INVALID_CAPTCHA, serverCode: 'GCAP_1' });
  });

  it('initPassword sets the first password of an account made by silent phone sign-in', async () => {
    const client = newClient();
    const phone = nextPhone();
    await sdk.sendSilentLoginCode(client, { phone_number: phone });
    await sdk.loginByPhoneSilently(client, { phone_number: phone, captcha: (await server.lastCode(phone)) ?? '' });
    expect((await sdk.getPrivacy(client)).has_password).toBe(false);
    await sdk.initPassword(client, { password: 'First1234', confirm_password: 'First1234' });
    expect((await sdk.getPrivacy(client)).has_password).toBe(true);
    await sdk.loginByPassword(newClient(), { identity: phone, password: 'First1234' });
  });
});

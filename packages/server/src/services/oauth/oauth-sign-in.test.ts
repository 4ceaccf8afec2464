import { ACCOUNTS_BASE as A, type LoginResult } from '@edupass/protocol';
import { authorize, providerReturn } from '@edupass/test-kit/oauth-flow';
import { describe, expect, it } from 'vitest';
import {
  authCookie,
  expectError,
  nextIdentity,
  nextPhone,
  PID,
  PROVIDER_ERROR,
  useOauthServer,
} from './oauth.test-setup.ts';

let now = Date.now();
const { server, call, loginAs, ticketFor, userOf, tokenOf, phoneUser, bindAs, oauths } = useOauthServer(() => now);

describe.each(['wechat', 'qq'] as const)('%s sign-in', (provider) => {
  it('an unknown identity gets an oauth_ticket and no auth; creating its user signs in and links it', async () => {
    const identity = nextIdentity();
    const first = await loginAs(provider, identity);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ oauth_ticket: expect.any(String), user_exists: false });
    expect(authCookie(first)).toBe(false);

    const { oauth_ticket } = first.body as { oauth_ticket: string };
    const check = await call('GET', `${A}/oauth/third-party?oauth_ticket=${encodeURIComponent(oauth_ticket)}`);
    expect(check.body).toMatchObject({ user_exists: false, provider, nickname: identity, phone_number: '' });

    const created = await call('POST', `${A}/oauth/third-party`, { oauth_ticket, agreement_ids: [-1] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(authCookie(created)).toBe(true);
    const result = created.body as LoginResult;
    expect(result.user_info.nickname).toBe(identity);
    expect(result.user_info.avatar_url).toMatch(/\/dev\/oauth\/.+\/avatar\/[0-9a-f]+\.svg$/);
    expect(result.auth).toMatchObject({ phone_number: '', has_password: false });

    const list = await oauths(tokenOf(result));
    expect(list.find((o) => o.name === provider)).toMatchObject({ is_bound: true, nickname: identity });
    expect(list.find((o) => o.name !== provider)).toMatchObject({ is_bound: false });

    // The linked identity now signs in directly, in the login shape, with the cookie set.
    const again = await loginAs(provider, identity);
    expect(again.status).toBe(200);
    expect(authCookie(again)).toBe(true);
    expect((again.body as LoginResult).user_info.id).toBe(result.user_info.id);
    expect((again.body as LoginResult).auth.token).toEqual(expect.any(String));
  });

  it('answers the token set to clients that send Auth-Version', async () => {
    const identity = nextIdentity();
    await userOf(provider, identity);
    const back = await providerReturn(server, provider, identity);
    const answer = await call(
      'POST',
      `${A}/oauth/${provider}`,
      { code: back.code, state: back.state, pid: PID },
      {
        headers: { cookie: back.cookie, 'Auth-Version': '2' },
      },
    );
    expect((answer.body as LoginResult).auth.token).toMatchObject({ access: { token: expect.any(String) } });
  });

  it('a replayed oauth_ticket is AC3_18, and so are an unknown one and an expired one', async () => {
    const ticket = await ticketFor(provider, nextIdentity());
    expect((await call('POST', `${A}/oauth/third-party`, { oauth_ticket: ticket })).status).toBe(200);
    expectError(await call('POST', `${A}/oauth/third-party`, { oauth_ticket: ticket }), 'AC3_18');
    expectError(await call('GET', `${A}/oauth/third-party?oauth_ticket=${encodeURIComponent(ticket)}`), 'AC3_18');
    expectError(await call('POST', `${A}/oauth/third-party`, { oauth_ticket: 'forged-ticket' }), 'AC3_18');
    expectError(
      await call('POST', `${A}/captcha/oauth`, { phone_number: nextPhone(), oauth_ticket: 'forged-ticket' }),
      'AC3_18',
    );

    const expiring = await ticketFor(provider, nextIdentity());
    now += (server.config.oauthTicketTtlSeconds + 1) * 1000;
    try {
      expectError(await call('POST', `${A}/oauth/third-party`, { oauth_ticket: expiring }), 'AC3_18');
    } finally {
      now = Date.now();
    }
  });

  it('the code step refuses a forged state, a missing state cookie and another sign-in’s state (AC3_16)', async () => {
    const back = await providerReturn(server, provider, nextIdentity());
    const post = (body: Record<string, unknown>, cookie?: string) =>
      call(
        'POST',
        `${A}/oauth/${provider}`,
        { code: back.code, pid: PID, ...body },
        {
          headers: cookie ? { cookie } : {},
        },
      );
    expectError(await post({ state: 'forged' }, back.cookie), 'AC3_16');
    expectError(await post({ state: back.state }), 'AC3_16');
    expectError(await post({}, back.cookie), 'AC3_16');
    const other = await authorize(server, provider, `${server.url}/callback`);
    expectError(await post({ state: back.state }, other.cookie), 'AC3_16');
    const tampered = back.cookie.replace(/=(.)/, (_m, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    expectError(await post({ state: back.state }, tampered), 'AC3_16');
    // The other provider's cookie is not this one's.
    const otherProvider = provider === 'wechat' ? 'qq' : 'wechat';
    const foreign = await authorize(server, otherProvider, `${server.url}/callback`);
    expectError(
      await post({ state: back.state }, foreign.cookie.replace(`_${otherProvider}=`, `_${provider}=`)),
      'AC3_16',
    );
    // After all that, the right state still works: nothing above spent the code.
    expect((await post({ state: back.state }, back.cookie)).status).toBe(200);
  });

  it('a state cookie past its lifetime is refused', async () => {
    const back = await providerReturn(server, provider, nextIdentity());
    now += 11 * 60_000;
    try {
      const answer = await call(
        'POST',
        `${A}/oauth/${provider}`,
        { code: back.code, state: back.state, pid: PID },
        {
          headers: { cookie: back.cookie },
        },
      );
      expectError(answer, 'AC3_16');
    } finally {
      now = Date.now();
    }
  });

  it(`a code the provider does not know is ${PROVIDER_ERROR[provider]}, and so is a code used twice`, async () => {
    const back = await providerReturn(server, provider, nextIdentity());
    const post = (code: string) =>
      call(
        'POST',
        `${A}/oauth/${provider}`,
        { code, state: back.state, pid: PID },
        { headers: { cookie: back.cookie } },
      );
    const unknown = await post('not-a-code');
    expectError(unknown, PROVIDER_ERROR[provider]);
    expect((unknown.body as { error_message: string }).error_message).toMatch(
      provider === 'wechat' ? /40029/ : /100019/,
    );
    expect((await post(back.code)).status).toBe(200);
    expectError(await post(back.code), PROVIDER_ERROR[provider]);
  });

  it('binds a phone through a code: a new phone makes a new user with that phone', async () => {
    const identity = nextIdentity();
    const ticket = await ticketFor(provider, identity);
    const phone = nextPhone();
    expect(
      (await call('POST', `${A}/captcha/oauth`, { phone_number: phone, oauth_ticket: ticket, pid: PID })).status,
    ).toBe(204);
    const check = await call('GET', `${A}/oauth/third-party?oauth_ticket=${encodeURIComponent(ticket)}`);
    expect(check.body).toMatchObject({
      user_exists: false,
      phone_number: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
    });

    // A wrong code keeps the ticket: the user can try again.
    expectError(
      await call('POST', `${A}/oauth/third-party`, {
        oauth_ticket: ticket,
        phone_number: phone,
        captcha: (await server.lastCode(phone)) === '000000' ? '111111' : '000000',
      }),
      'AC3_13',
    );
    const created = await call('POST', `${A}/oauth/third-party`, {
      oauth_ticket: ticket,
      phone_number: phone,
      captcha: await server.lastCode(phone),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((created.body as LoginResult).auth.phone_number).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expectError(await call('POST', `${A}/oauth/third-party`, { oauth_ticket: ticket }), 'AC3_18');
  });

  it('sends the bind code by voice with type OAUTH and the oauth_ticket', async () => {
    const ticket = await ticketFor(provider, nextIdentity());
    const phone = nextPhone();
    const voice = await call('POST', `${A}/voice/captcha/send`, {
      phone_number: phone,
      type: 'oauth',
      oauth_ticket: ticket,
    });
    expect(voice.status, JSON.stringify(voice.body)).toBe(204);
    const outbox = (await call('GET', `/dev/outbox?to=${phone}`)).body as { channel: string }[];
    expect(outbox[0]?.channel).toBe('voice');
    const created = await call('POST', `${A}/oauth/third-party`, {
      oauth_ticket: ticket,
      captcha: await server.lastCode(phone),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expectError(await call('POST', `${A}/voice/captcha/send`, { phone_number: nextPhone(), type: 'OAUTH' }), 'AC3_18');
  });

  it('binds to the existing account of a phone; the create step may name only the code', async () => {
    const owner = await phoneUser();
    const ticket = await ticketFor(provider, nextIdentity());
    expect((await call('POST', `${A}/captcha/oauth`, { phone_number: owner.phone, oauth_ticket: ticket })).status).toBe(
      204,
    );
    const check = await call('GET', `${A}/oauth/third-party?oauth_ticket=${encodeURIComponent(ticket)}`);
    expect(check.body).toMatchObject({ user_exists: true });
    const answer = await call('POST', `${A}/oauth/third-party`, {
      oauth_ticket: ticket,
      captcha: await server.lastCode(owner.phone),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((answer.body as LoginResult).user_info.id).toBe(owner.id);
    expect((await oauths(owner.token)).find((o) => o.name === provider)?.is_bound).toBe(true);
  });

  it('a phone whose account already has this kind bound is AC3_21 before any code is sent', async () => {
    const owner = await phoneUser();
    expect((await bindAs(provider, owner.token, nextIdentity())).status).toBe(204);
    const ticket = await ticketFor(provider, nextIdentity());
    expectError(
      await call('POST', `${A}/captcha/oauth`, { phone_number: owner.phone, oauth_ticket: ticket }),
      'AC3_21',
    );
  });

  it('a signed-in user binds and unbinds; binding a second identity of the kind is AC3_21', async () => {
    const owner = await phoneUser();
    const identity = nextIdentity();
    expect((await bindAs(provider, owner.token, identity)).status).toBe(204);
    expect((await oauths(owner.token)).find((o) => o.name === provider)).toMatchObject({
      is_bound: true,
      nickname: identity,
    });
    // The same identity again is already done.
    expect((await bindAs(provider, owner.token, identity)).status).toBe(204);
    expectError(await bindAs(provider, owner.token, nextIdentity()), 'AC3_21');
    // The phone remains a way in, so unbinding is allowed.
    expect((await call('PATCH', `${A}/oauth/${provider}/unbind`, undefined, { token: owner.token })).status).toBe(204);
    expect((await oauths(owner.token)).find((o) => o.name === provider)?.is_bound).toBe(false);
    // Nothing bound: nothing to do.
    expect((await call('PATCH', `${A}/oauth/${provider}/unbind`, undefined, { token: owner.token })).status).toBe(204);
  });

  it('an identity bound to one account cannot be bound to another (AC3_20)', async () => {
    const identity = nextIdentity();
    await userOf(provider, identity);
    const other = await phoneUser();
    expectError(await bindAs(provider, other.token, identity), 'AC3_20');
  });

  it('binding needs the state of this browser and a signed-in user', async () => {
    const owner = await phoneUser();
    const back = await providerReturn(server, provider, nextIdentity());
    expectError(
      await call(
        'POST',
        `${A}/oauth/${provider}/bind`,
        { code: back.code, state: 'forged' },
        {
          token: owner.token,
          headers: { cookie: back.cookie },
        },
      ),
      'AC3_16',
    );
    expectError(await call('POST', `${A}/oauth/${provider}/bind`, { code: back.code, state: back.state }), 'E_0');
  });

  it('never unbinds the last way to sign in (AC3_22); another third-party account counts as a way', async () => {
    const result = await userOf(provider, nextIdentity());
    const token = tokenOf(result);
    expectError(await call('PATCH', `${A}/oauth/${provider}/unbind`, undefined, { token }), 'AC3_22');
    const otherProvider = provider === 'wechat' ? 'qq' : 'wechat';
    expect((await bindAs(otherProvider, token, nextIdentity())).status).toBe(204);
    expect((await call('PATCH', `${A}/oauth/${provider}/unbind`, undefined, { token })).status).toBe(204);
    expectError(await call('PATCH', `${A}/oauth/${otherProvider}/unbind`, undefined, { token }), 'AC3_22');
  });

  it('refuses a redirect outside this site', async () => {
    const answer = await call(
      'GET',
      `${A}/oauth/${provider}/authorize?redirect=${encodeURIComponent('https://evil.example/cb')}`,
    );
    expectError(answer, 'E_1');
  });

  it("sends a browser opening it from another host name to the web client's screen saying so; programs keep the JSON error", async () => {
    const start = (redirect: string, headers: Record<string, string>) =>
      fetch(`${server.url}${A}/oauth/${provider}/authorize?redirect=${encodeURIComponent(redirect)}`, {
        redirect: 'manual',
        headers,
      });
    const navigation = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' };
    const page = new URL('/', server.config.publicUrl);
    const elsewhere = await start('http://localhost:1/?oauth=x', navigation);
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get('location')).toBe(`${page.href}?oauth=${provider}&error=wrong-site`);
    expect(elsewhere.headers.get('set-cookie')).toBeNull();
    // A browser without a redirect at all: the same screen, told the start failed.
    const bare = await fetch(`${server.url}${A}/oauth/${provider}/authorize`, {
      redirect: 'manual',
      headers: navigation,
    });
    expect(bare.headers.get('location')).toBe(`${page.href}?oauth=${provider}&error=unavailable`);
    // A program (JSON, or no HTML in what it accepts) still gets the catalogue error.
    for (const headers of [{ accept: 'application/json' }, { accept: '*/*' }, {}] as Record<string, string>[]) {
      const answer = await start('https://evil.example/cb', headers);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error_code: 'E_1' });
    }
  });

  it('answers JSON callers with the provider URL and state', async () => {
    const answer = await call(
      'GET',
      `${A}/oauth/${provider}/authorize?redirect=${encodeURIComponent(`${server.url}/cb`)}`,
      undefined,
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(answer.status).toBe(200);
    const { url, state } = answer.body as { url: string; state: string };
    expect(new URL(url).searchParams.get('state')).toBe(state);
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(`${server.url}/cb`);
    expect(url).toContain(provider === 'wechat' ? '/connect/qrconnect?' : '/oauth2.0/authorize?');
  });
});

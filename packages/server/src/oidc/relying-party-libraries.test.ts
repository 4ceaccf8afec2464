/**
 * The relying-party libraries sites already run, unchanged and with their defaults, against the real
 * provider: express-openid-connect (response_type=id_token by form_post, RS256 expected), and with
 * the code flow and a refresh; passport-openidconnect (no PKCE, client_secret_post); Auth.js
 * (`@auth/core`: a session with the user's name); oauth4webapi; openid-client. Each application is a
 * real HTTP server on this machine; the browser's part is plain HTTP with a cookie jar (redirects
 * followed, the provider's form_post submitted), the web client's part its interaction API. Each
 * loses its session once the user signs out of EduPass: express-openid-connect by back-channel logout
 * (with response_type=id_token it holds no token EduPass could revoke), the others because their
 * refresh (and for oauth4webapi and openid-client, the userinfo call) is refused, upon which the
 * application ends its own session.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Auth, type AuthConfig } from '@auth/core';
import { INTERACTION_PARAM } from '@edupass/protocol';
import { A, type Account, signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser, type Hop } from '@edupass/test-kit/cookie-browser';
import { hiddenFields, unescapeHtml } from '@edupass/test-kit/html-form';
import { client } from '@edupass/test-kit/http-client';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Express and its middleware are CommonJS without types of their own.
const load = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: untyped CommonJS libraries under test
type Untyped = any;
const express: Untyped = load('express');
const { auth: expressOpenIdConnect }: Untyped = load('express-openid-connect');
const passport: Untyped = load('passport');
const OpenIDConnectStrategy: Untyped = load('passport-openidconnect');
const session: Untyped = load('express-session');

// Back-channel logout tokens are posted to applications on this machine (private addresses allowed).
const { server, adoptOwnUrl } = useIssuerServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const COOKIE_SECRET = 'a cookie secret long enough for every library here';

let user: Account;
let nickname: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  adoptOwnUrl();
});

// Each library signs in a user of its own, who signs out of EduPass at the end.
beforeEach(async () => {
  user = await signUpAgreed(server);
  const profile = await client(server.url)<{ nickname: string }>('GET', '/tiger/v3/web/accounts/profile', undefined, {
    token: user.token,
  });
  nickname = profile.body.nickname;
  expect(nickname).toBeTypeOf('string');
});

afterAll(async () => {
  for (const close of closers) await close();
});

/** Serves `handler` on a random local port until the file ends. */
const listen = async (handler: RequestListener) => {
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => http.close(() => resolve())));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
};

type Browser = ReturnType<typeof cookieBrowser>;

/**
 * A browser that reaches `publicOrigin` at `localUrl`, as through a TLS-terminating proxy: for an
 * application whose public address is https (the ID-token-alone flow is for https web clients only).
 */
const proxiedBrowser = (publicOrigin: string, localUrl: string): Browser => {
  const inner = cookieBrowser();
  const local = (url: string) => (url.startsWith(publicOrigin) ? localUrl + url.slice(publicOrigin.length) : url);
  return { ...inner, request: (url, init) => inner.request(local(url), init) };
};

/** The provider's form_post page: the form it submits by script. */
const autoPostedForm = (hop: Hop) => {
  const action = /<form method="post" action="([^"]+)">/.exec(hop.body)?.[1];
  if (action === undefined) return undefined;
  return { action: unescapeHtml(action), form: hiddenFields(hop.body) };
};

/**
 * What a browser does from `url`: follows redirects and submits the provider's form_post, until a
 * page that does neither (answered), or until EduPass's sign-in screen (the interaction URL).
 */
const visit = async (browser: Browser, url: string) => {
  let hop = await browser.request(url);
  for (let step = 0; step < 15; step++) {
    if (hop.location !== undefined) {
      if (new URL(hop.location).searchParams.has(INTERACTION_PARAM)) return { signInAt: hop.location, hop };
      hop = await browser.request(hop.location);
      continue;
    }
    const posted = autoPostedForm(hop);
    if (posted === undefined) return { hop };
    hop = await browser.request(posted.action, { form: posted.form });
  }
  throw new Error(`too many steps from ${url}`);
};

/** The web client's part: the signed-in user completes the interaction; the browser goes on. */
const signInAtEduPass = async (browser: Browser, signInAt: string | undefined) => {
  expect(signInAt).toBeTypeOf('string');
  const answer = await interactionCall<{ redirect_to: string }>(
    server,
    browser,
    'POST',
    `${interactionOf(String(signInAt))}/complete`,
    {},
    user.token,
  );
  expect(answer.status).toBe(200);
  return (await visit(browser, answer.body.redirect_to)).hop;
};

/** The user signs out of EduPass (the account centre's sign-out): the applications' grants end with it. */
const signOutOfEduPass = async () => {
  expect((await client(server.url)('POST', `${A}/logout`, {}, { token: user.token })).status).toBe(204);
};

const json = (hop: Hop) => {
  expect(hop.status, hop.body.slice(0, 300)).toBe(200);
  return JSON.parse(hop.body) as Record<string, unknown>;
};

const confidentialApp = async (name: string, callback: string, backchannelLogoutUri?: string) => {
  const made = await registerApp(server, {
    name,
    redirect_uris: [callback],
    ...(backchannelLogoutUri ? { backchannel_logout_uri: backchannelLogoutUri } : {}),
  });
  return { id: made.application.client_id, secret: String(made.client_secret) };
};

describe('express-openid-connect', () => {
  it('signs in with its defaults (ID token by form_post, RS256); back-channel logout ends its session', async () => {
    const app = express();
    const local = await listen((req: IncomingMessage, res: ServerResponse) => app(req, res));
    const url = 'https://express.school.example';
    // EduPass posts logout tokens to the application's own address on this machine.
    const clientId = (await confidentialApp('Express defaults', `${url}/callback`, `${local}/backchannel-logout`)).id;
    // Its defaults, and its back-channel logout on (which needs a store for the logouts received).
    const logouts = new session.MemoryStore();
    app.use(
      expressOpenIdConnect({
        issuerBaseURL: `${server.url}/oidc`,
        baseURL: url,
        clientID: clientId,
        secret: COOKIE_SECRET,
        backchannelLogout: { store: logouts },
      }),
    );
    app.get('/me', (req: Untyped, res: Untyped) => res.json(req.oidc.user));

    const browser = proxiedBrowser(url, local);
    const first = await visit(browser, `${url}/me`);
    const me = json(await signInAtEduPass(browser, first.signInAt));
    expect(me).toMatchObject({ sub: String(user.userId), name: nickname, nickname });
    // Signed in: the next visit is answered at once.
    expect(json((await visit(browser, `${url}/me`)).hop)).toMatchObject({ sub: String(user.userId) });

    await signOutOfEduPass();
    // The library took EduPass's logout token (verified against the JWKS) and stored the logout…
    await expect
      .poll(() => new Promise((done) => logouts.length((_: unknown, n: number) => done(n))))
      .toBeGreaterThan(0);
    // …so the session cookie it still gets is refused: the next visit asks EduPass to sign in again.
    expect((await visit(browser, `${url}/me`)).signInAt).toBeTypeOf('string');
  });

  it('signs in by the code flow and refreshes its access token', async () => {
    const app = express();
    const url = await listen((req: IncomingMessage, res: ServerResponse) => app(req, res));
    const registered = await confidentialApp('Express code flow', `${url}/callback`);
    app.use(
      expressOpenIdConnect({
        issuerBaseURL: `${server.url}/oidc`,
        baseURL: url,
        clientID: registered.id,
        clientSecret: registered.secret,
        secret: COOKIE_SECRET,
        authorizationParams: { response_type: 'code', scope: 'openid profile offline_access' },
      }),
    );
    app.get('/refresh', async (req: Untyped, res: Untyped, next: Untyped) => {
      try {
        const before = req.oidc.accessToken.access_token;
        const after = await req.oidc.accessToken.refresh();
        const info = await req.oidc.fetchUserInfo();
        res.json({ changed: after.access_token !== before, sub: info.sub, name: req.oidc.user.name });
      } catch (error) {
        if ((error as { error?: string }).error !== 'invalid_grant') return next(error);
        // What an application does when its refresh is refused: it ends its own session.
        res.oidc.logout({ returnTo: '/refresh' });
      }
    });

    const browser = cookieBrowser();
    const first = await visit(browser, `${url}/refresh`);
    const answer = json(await signInAtEduPass(browser, first.signInAt));
    expect(answer).toEqual({ changed: true, sub: String(user.userId), name: nickname });

    await signOutOfEduPass();
    // Its refresh refused, the application ends its own session: the next visit asks EduPass for a
    // sign-in, and EduPass asks the user (its session has ended too).
    expect((await visit(browser, `${url}/refresh`)).signInAt).toBeTypeOf('string');
  });
});

describe('passport-openidconnect', () => {
  it('signs in without PKCE (client_secret_post) and refreshes with its OAuth client', async () => {
    const app = express();
    const url = await listen((req: IncomingMessage, res: ServerResponse) => app(req, res));
    const registered = await confidentialApp('Passport', `${url}/callback`);
    const strategy = new OpenIDConnectStrategy(
      {
        issuer: `${server.url}/oidc`,
        authorizationURL: `${server.url}/oidc/auth`,
        tokenURL: `${server.url}/oidc/token`,
        userInfoURL: `${server.url}/oidc/me`,
        clientID: registered.id,
        clientSecret: registered.secret,
        callbackURL: `${url}/callback`,
        scope: ['profile'],
      },
      (
        _issuer: string,
        profile: Untyped,
        _context: unknown,
        _idToken: string,
        _accessToken: string,
        refreshToken: string,
        done: Untyped,
      ) => done(null, { id: profile.id, name: profile.displayName, refreshToken }),
    );
    passport.use('edupass', strategy);
    passport.serializeUser((signedIn: unknown, done: Untyped) => done(null, signedIn));
    passport.deserializeUser((signedIn: unknown, done: Untyped) => done(null, signedIn));
    app.use(session({ secret: COOKIE_SECRET, resave: false, saveUninitialized: false }));
    app.use(passport.session());
    app.get('/login', passport.authenticate('edupass'));
    app.get('/callback', passport.authenticate('edupass', { successRedirect: '/me', failureRedirect: '/failed' }));
    app.get('/whoami', (req: Untyped, res: Untyped) => res.json({ signedIn: req.user !== undefined }));
    app.get('/me', (req: Untyped, res: Untyped, next: Untyped) => {
      if (!req.user) return res.redirect('/login');
      // Its own OAuth 2.0 client (what passport-oauth2-refresh uses) exchanges the refresh token.
      strategy._oauth2.getOAuthAccessToken(
        req.user.refreshToken,
        { grant_type: 'refresh_token' },
        (error: { statusCode?: number } | null, accessToken: string) => {
          if (!error)
            return res.json({ id: req.user.id, name: req.user.name, refreshed: typeof accessToken === 'string' });
          if (error.statusCode !== 400) return next(error);
          // Refused (invalid_grant): the application ends its own session and asks for a sign-in.
          req.logout((failed: unknown) => (failed ? next(failed) : res.redirect('/login')));
        },
      );
    });

    const browser = cookieBrowser();
    const first = await visit(browser, `${url}/login`);
    // passport-openidconnect sends no code_challenge; the confidential application does not require one.
    expect(new URL(String(first.signInAt)).searchParams.has(INTERACTION_PARAM)).toBe(true);
    const me = json(await signInAtEduPass(browser, first.signInAt));
    expect(me).toMatchObject({ id: String(user.userId), name: nickname, refreshed: true });
    expect(json((await visit(browser, `${url}/whoami`)).hop)).toEqual({ signedIn: true });

    await signOutOfEduPass();
    // Its refresh refused, it signs the user out of itself; EduPass asks the user to sign in again.
    expect((await visit(browser, `${url}/me`)).signInAt).toBeTypeOf('string');
    expect(json((await visit(browser, `${url}/whoami`)).hop)).toEqual({ signedIn: false });
  });
});

describe('Auth.js (@auth/core)', () => {
  it('signs in with a session carrying the user name, and refreshes in its jwt callback', async () => {
    let url = '';
    let registered = { id: '', secret: '' };
    const config = (): AuthConfig => ({
      basePath: '/auth',
      secret: COOKIE_SECRET,
      trustHost: true,
      providers: [
        {
          id: 'edupass',
          name: 'EduPass',
          type: 'oidc',
          issuer: `${server.url}/oidc`,
          clientId: registered.id,
          clientSecret: registered.secret,
          authorization: { params: { scope: 'openid profile offline_access' } },
        },
      ],
      callbacks: {
        // The refresh-token rotation Auth.js documents: the token endpoint, asked from the jwt callback.
        async jwt({ token, account }) {
          if (account) return { ...token, refresh_token: account.refresh_token, refreshed: false };
          if (typeof token.refresh_token !== 'string') return token;
          const answer = await fetch(`${server.url}/oidc/token`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(`${registered.id}:${registered.secret}`).toString('base64')}`,
            },
            body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.refresh_token }),
          });
          const tokens = (await answer.json()) as { refresh_token?: string };
          // Refused (the EduPass session ended): the session ends too.
          return answer.ok
            ? { ...token, refresh_token: tokens.refresh_token ?? token.refresh_token, refreshed: true }
            : null;
        },
        async session({ session: shown, token }) {
          return { ...shown, refreshed: token.refreshed === true };
        },
      },
    });
    url = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = new Request(new URL(String(req.url), url), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([name, value]) =>
          value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
        ),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const response = await Auth(request, config());
      res.statusCode = response.status;
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') res.setHeader(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader('set-cookie', cookies);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    registered = await confidentialApp('Auth.js', `${url}/auth/callback/edupass`);

    const browser = cookieBrowser();
    const { csrfToken } = json((await visit(browser, `${url}/auth/csrf`)).hop) as { csrfToken: string };
    const started = await browser.request(`${url}/auth/signin/edupass`, {
      form: { csrfToken, callbackUrl: `${url}/auth/session` },
    });
    expect(started.location).toBeTypeOf('string');
    const first = await visit(browser, String(started.location));
    const landed = await signInAtEduPass(browser, first.signInAt);
    const shown = json(landed);
    expect(shown).toMatchObject({ user: { name: nickname } });
    // The next read of the session runs the jwt callback again, which refreshes.
    expect(json((await visit(browser, `${url}/auth/session`)).hop)).toMatchObject({
      user: { name: nickname },
      refreshed: true,
    });

    await signOutOfEduPass();
    const gone = (await visit(browser, `${url}/auth/session`)).hop.body;
    expect(JSON.parse(gone)).toBeNull();
  });
});

describe('oauth4webapi', () => {
  it('signs in by code + PKCE, validates the RS256 ID token and refreshes', async () => {
    const callback = 'http://127.0.0.1:7311/callback';
    const registered = await confidentialApp('oauth4webapi', callback);
    const issuer = new URL(`${server.url}/oidc`);
    const options = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    const rp: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.ClientSecretBasic(registered.secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const authorizeAt = new URL(String(as.authorization_endpoint));
    authorizeAt.search = new URLSearchParams({
      client_id: rp.client_id,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'openid profile',
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const browser = cookieBrowser();
    const first = await visit(browser, authorizeAt.href);
    const back = await complete(server, browser, String(first.signInAt), user.token, callback);
    const params = oauth.validateAuthResponse(as, rp, new URL(back), oauth.expectNoState);
    const grant = await oauth.authorizationCodeGrantRequest(as, rp, clientAuth, params, callback, verifier, options);
    const tokens = await oauth.processAuthorizationCodeResponse(as, rp, grant, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims).toMatchObject({ sub: String(user.userId), name: nickname });
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      rp,
      await oauth.refreshTokenGrantRequest(as, rp, clientAuth, String(tokens.refresh_token), options),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(String(user.userId));

    const userInfo = () => oauth.userInfoRequest(as, rp, refreshed.access_token, options);
    expect(await oauth.processUserInfoResponse(as, rp, String(user.userId), await userInfo())).toMatchObject({
      name: nickname,
    });

    await signOutOfEduPass();
    // The access token it holds is refused at userinfo, and so is its refresh.
    await expect(oauth.processUserInfoResponse(as, rp, String(user.userId), await userInfo())).rejects.toMatchObject({
      status: 401,
    });
    const refused = oauth.refreshTokenGrantRequest(
      as,
      rp,
      clientAuth,
      String(refreshed.refresh_token ?? tokens.refresh_token),
      options,
    );
    await expect(oauth.processRefreshTokenResponse(as, rp, await refused)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('openid-client', () => {
  it('signs in with its defaults (RS256 expected) and refreshes', async () => {
    const callback = 'http://127.0.0.1:7312/callback';
    const registered = await confidentialApp('openid-client', callback);
    const config = await discover(server, registered.id, registered.secret);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, callback, { scope: 'openid profile' });
    const back = await complete(server, browser, landed, user.token, callback);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back), checks);
    expect(tokens.claims()).toMatchObject({ sub: String(user.userId), name: nickname });
    const refreshed = await oidc.refreshTokenGrant(config, String(tokens.refresh_token));
    expect(refreshed.claims()?.sub).toBe(String(user.userId));
    const userInfo = () => oidc.fetchUserInfo(config, refreshed.access_token, String(user.userId));
    expect(await userInfo()).toMatchObject({ name: nickname });

    await signOutOfEduPass();
    // The access token it holds is refused at userinfo, and so is its refresh.
    await expect(userInfo()).rejects.toMatchObject({ status: 401 });
    await expect(
      oidc.refreshTokenGrant(config, String(refreshed.refresh_token ?? tokens.refresh_token)),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

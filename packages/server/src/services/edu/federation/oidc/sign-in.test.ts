/**
 * Signing in with a school's OAuth2 / OpenID Connect education platform, against `oidc-provider`
 * (panva/node-oidc-provider, not written here) as the platform: real HTTP, discovery, PKCE required
 * by the platform, ID tokens verified with `jose`. Forged and expired ID tokens are put into the
 * platform's token answer on its way out, so they reach EduPass the way a compromised or broken
 * platform's would.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EduMemberships, routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runSchools } from '../../../../cli/school-connectors.ts';

const { server, call } = useOauthTestServer();
const edu = eduSteps(server, call);

interface Person {
  sub: string;
  name?: string;
  eduperson_affiliation?: string[];
  class?: string[];
}

/** The stand-in platform: oidc-provider behind a thin server that signs in whoever `next` names. */
interface Platform {
  issuer: string;
  /** Who signs in at the platform next. */
  next: Person;
  /** Rewrites the ID token of the next token answer. */
  tamper: ((idToken: string) => Promise<string>) | undefined;
  /** Token requests seen (form fields). */
  tokenRequests: URLSearchParams[];
  signingKey: { privateKey: CryptoKey; kid: string };
  /** After the platform rotated its client secret: the one it takes now (the old one it refuses). */
  rotatedSecret: string | undefined;
  /** The key set's address drops every connection (the platform's key server is down). */
  jwksDown: boolean;
  /** Back-channel logouts the platform posted: to which client, and whether it took them (200 or 204). */
  logoutsSent: { clientId: string; ok: boolean; error?: string }[];
  close: () => Promise<void>;
}

const CLIENT = { id: 'edupass-school', secret: 'platform-client-secret-0123456789' };
/** The connector whose platform client registered EduPass's back-channel logout URI. */
const LOGOUT_CONNECTOR = 'platform-logout';
const LOGOUT_CLIENT = `${CLIENT.id}-logout`;

let platform: Platform;
/** Connectors are `platform-1`, `platform-2`…: their redirect URIs are registered before the platform starts. */
const CONNECTORS = 50;

/** `trailingSlash`: the platform names itself `http://host:port/` in its discovery document and ID tokens. */
const startPlatform = async ({ trailingSlash = false } = {}): Promise<Platform> => {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'platform-key-1';
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const http: Server = createServer();
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}${trailingSlash ? '/' : ''}`;
  const state: Platform = {
    issuer,
    next: { sub: 'nobody' },
    tamper: undefined,
    tokenRequests: [],
    signingKey: { privateKey, kid },
    rotatedSecret: undefined,
    jwksDown: false,
    logoutsSent: [],
    close: () => new Promise((done) => http.close(() => done())),
  };
  const redirectUris = Array.from(
    { length: CONNECTORS },
    (_, i) => `${server.url}/edu/school-sign-in/platform-${i + 1}/oidc`,
  );
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: redirectUris,
        // The address the console tells the operator to register for signing out there from EduPass.
        post_logout_redirect_uris: [`${server.url}/?notice=signed-out`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: `${CLIENT.id}-post`,
        client_secret: CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: LOGOUT_CLIENT,
        client_secret: CLIENT.secret,
        redirect_uris: [`${server.url}/edu/school-sign-in/${LOGOUT_CONNECTOR}/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        // The address the console tells the operator to register.
        backchannel_logout_uri: `${server.url}/edu/school-sign-in/${LOGOUT_CONNECTOR}/oidc/logout`,
        backchannel_logout_session_required: true,
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name'], edu: ['eduperson_affiliation', 'class'] },
    features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
    // The platform posts its logout tokens to EduPass on the loopback address, which its own guard
    // against requests to special-use addresses refuses, and within 2.5 s, which a loaded machine may
    // miss: neither is what is tested here.
    fetch: (url: URL | string, options: RequestInit & { dispatcher?: unknown }) =>
      fetch(url, { ...options, dispatcher: undefined, signal: null } as RequestInit),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['platform-cookie-key'] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => (sub === state.next.sub ? { ...state.next } : { sub }),
    }),
  });
  // oidc-provider's events: ('backchannel.success', ctx, client, …) and ('backchannel.error', ctx, error, client, …).
  provider.on('backchannel.success', (...args: unknown[]) => {
    state.logoutsSent.push({ clientId: (args[1] as { clientId: string }).clientId, ok: true });
  });
  provider.on('backchannel.error', (...args: unknown[]) => {
    const [, error, client] = args as [unknown, Error, { clientId: string }];
    const cause = error.cause === undefined ? '' : ` (${String(error.cause)})`;
    state.logoutsSent.push({ clientId: client.clientId, ok: false, error: `${error.message}${cause}` });
  });
  const callback = provider.callback();
  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: state.next.sub } });
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId ?? '',
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
  };
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (state.jwksDown && req.url === '/jwks') {
      req.socket.destroy();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    if (req.method === 'POST' && req.url === '/token' && state.rotatedSecret !== undefined) {
      // The platform rotated the secret of the basic-auth client: the old one is refused, the new one
      // stands for the secret oidc-provider was configured with.
      const basic = (secret: string) => `Basic ${Buffer.from(`${CLIENT.id}:${secret}`).toString('base64')}`;
      if (req.headers.authorization === basic(CLIENT.secret)) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_client' }));
        return;
      }
      if (req.headers.authorization === basic(state.rotatedSecret)) req.headers.authorization = basic(CLIENT.secret);
    }
    if (req.method === 'POST' && req.url === '/token') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => state.tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
      const tamper = state.tamper;
      state.tamper = undefined;
      if (tamper) rewriteIdToken(res, tamper);
    }
    callback(req, res);
  });
  return state;
};

/** Changes the ID token in the token answer on its way out. */
const rewriteIdToken = (res: ServerResponse, tamper: (idToken: string) => Promise<string>) => {
  const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
  res.end = ((body?: unknown) => {
    const answer = JSON.parse(String(body)) as { id_token?: string };
    if (answer.id_token === undefined) return end(body);
    void tamper(answer.id_token).then((idToken) => {
      const text = JSON.stringify({ ...answer, id_token: idToken });
      res.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    });
    return res;
  }) as typeof res.end;
};

beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.close());

let codes = 0;
const operatorCall = async (method: 'POST' | 'PUT' | 'PATCH' | 'GET', path: string, body?: unknown) =>
  call(method, path, body, { token: await edu.operatorToken() });

/** A school with an education-platform connector pointing at the stand-in platform. */
const schoolWithPlatform = async (
  settings: Record<string, unknown> = {},
  mapping?: Record<string, unknown>,
  code = `platform-${++codes}`,
) => {
  const schoolId = await edu.addSchool('实验小学');
  const added = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
    code,
    kind: 'oidc',
    name: '区教育云平台',
    settings: {
      preset: 'oidc',
      issuer: platform.issuer,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      scopes: ['openid', 'profile', 'edu'],
      ...settings,
    },
    mapping,
  });
  return { schoolId, code, connector: edu.ok<{ id: number; settings: Record<string, unknown> }>(added) };
};

/** The stand-in platform as a plain OAuth2 one: its endpoints named, the `client_secret_post` client. */
const oauth2Settings = () => ({
  preset: 'edu-cloud',
  protocol: 'oauth2',
  issuer: undefined,
  client_id: `${CLIENT.id}-post`,
  authorization_endpoint: `${platform.issuer}/auth`,
  token_endpoint: `${platform.issuer}/token`,
  userinfo_endpoint: `${platform.issuer}/me`,
});

interface Round {
  /** The platform's authorization address EduPass sent the browser to. */
  authorizeUrl: URL;
  /** The address the platform sent the browser back to (with code and state). */
  callback: URL;
  stateCookie: string;
  /** The browser at the platform (its cookies there: its session). */
  browser: PlatformBrowser;
}

type PlatformBrowser = ReturnType<typeof cookieBrowser>;

/**
 * Start at EduPass and sign in at the platform; stops before the browser comes back. `browser`: one
 * already signed in at the platform (the same session there).
 */
const atPlatform = async (
  code: string,
  person: Person,
  at: Platform = platform,
  browser = cookieBrowser(),
): Promise<Round> => {
  const start = new URL(`/edu/school-sign-in/${code}/start`, server.url);
  start.searchParams.set('redirect', `${server.url}/account`);
  const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
  const authorizeUrl = new URL(redirectTarget(started));
  const stateCookie = cookieSet(started, 'edupass_school') ?? '';
  at.next = person;
  const callback = await browser.follow(authorizeUrl.href, (next) => new URL(next).origin === server.url);
  return { authorizeUrl, callback: new URL(callback), stateCookie, browser };
};

/** The browser comes back to EduPass (with `cookie` as its state cookie). */
const backAtEduPass = async (callback: URL, cookie: string) => {
  const finished = await fetch(callback, { redirect: 'manual', headers: { accept: 'text/html', cookie } });
  return { landed: redirectTarget(finished), auth: cookieSet(finished, 'authorization') };
};

const signIn = async (code: string, person: Person, at: Platform = platform, browser?: PlatformBrowser) => {
  const round = await atPlatform(code, person, at, browser);
  return { ...round, ...(await backAtEduPass(round.callback, round.stateCookie)) };
};

/** The account the `authorization` cookie `auth` is signed in to. */
const accountOf = async (auth: string | undefined) =>
  edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } })).id;

const membershipsOf = async (auth: string | undefined) =>
  edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } }));

const pupil = (sub: string, className = '三年级(2)班'): Person => ({
  sub,
  name: '王小明',
  eduperson_affiliation: ['student'],
  class: [className],
});

describe('signing in with an OpenID Connect education platform (oidc-provider as the platform)', () => {
  test('a pupil signs in just in time with PKCE, state and nonce, lands in the class, and comes back as the same account', async () => {
    const { schoolId, code } = await schoolWithPlatform();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级(2)班');

    const first = await signIn(code, pupil('pairwise-7f3a9c'));
    const asked = first.authorizeUrl.searchParams;
    expect(first.authorizeUrl.origin).toBe(platform.issuer);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(asked.get('state')).toMatch(/^[\w-]{20,}$/);
    // The verifier went to the platform only at the code exchange, never in the browser's addresses.
    const verifier = platform.tokenRequests.at(-1)?.get('code_verifier') ?? '';
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    expect(first.authorizeUrl.toString()).not.toContain(verifier);
    expect(first.landed).toBe(`${server.url}/account`);
    expect(first.auth).toMatch(/^authorization=./);
    expect((await membershipsOf(first.auth)).classes).toEqual([
      expect.objectContaining({ id: classId, role: 'pupil' }),
    ]);

    const again = await signIn(code, pupil('pairwise-7f3a9c'));
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    expect(await me(again.auth)).toBe(await me(first.auth));
    const stored = await server.app.ctx.db.selectFrom('school_person_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain('pairwise-7f3a9c');
  });

  test('a teacher (eduperson_affiliation faculty) lands as an approved teacher of the school', async () => {
    const { schoolId, code } = await schoolWithPlatform();
    const signedIn = await signIn(code, { sub: 'pairwise-t-01', name: '张老师', eduperson_affiliation: ['faculty'] });
    expect((await membershipsOf(signedIn.auth)).schools).toEqual([
      expect.objectContaining({ id: schoolId, role: 'teacher', status: 'approved' }),
    ]);
  });

  test('a wrong state is refused before the code is used', async () => {
    const { code } = await schoolWithPlatform();
    const round = await atPlatform(code, pupil('pairwise-state'));
    const exchanges = platform.tokenRequests.length;
    const wrong = new URL(round.callback);
    wrong.searchParams.set('state', 'x'.repeat(32));
    const back = await backAtEduPass(wrong, round.stateCookie);
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=expired`);
    expect(back.auth).toBeUndefined();
    expect(platform.tokenRequests.length).toBe(exchanges);
  });

  test('PKCE: a code carried into another browser’s sign-in (its own state and verifier) is refused by the platform', async () => {
    const { code } = await schoolWithPlatform();
    const victim = await atPlatform(code, pupil('pairwise-victim'));
    const attacker = await atPlatform(code, pupil('pairwise-attacker'));
    const injected = new URL(attacker.callback);
    injected.searchParams.set('code', victim.callback.searchParams.get('code') ?? '');
    const back = await backAtEduPass(injected, attacker.stateCookie);
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(back.auth).toBeUndefined();
    // The victim's own return, with its verifier, still works: the platform refused only the wrong verifier.
    const own = await backAtEduPass(victim.callback, victim.stateCookie);
    expect(own.auth).toMatch(/^authorization=./);
  });

  test('control: an ID token re-signed with the platform’s key and nothing changed is taken', async () => {
    const { code } = await schoolWithPlatform();
    platform.tamper = (idToken) =>
      new SignJWT(decodeJwt(idToken))
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(platform.signingKey.privateKey);
    const back = await signIn(code, pupil('pairwise-control'));
    expect(back.auth).toMatch(/^authorization=./);
  });

  test('an ID token signed with another key (same key id) is refused', async () => {
    const { code } = await schoolWithPlatform();
    const { privateKey: forger } = await generateKeyPair('RS256');
    platform.tamper = (idToken) =>
      new SignJWT({ ...decodeJwt(idToken), sub: 'pairwise-someone-else' })
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(forger);
    const back = await signIn(code, pupil('pairwise-forged'));
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(back.auth).toBeUndefined();
  });

  test('an expired ID token, signed with the platform’s own key, is refused', async () => {
    const { code } = await schoolWithPlatform();
    platform.tamper = (idToken) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...decodeJwt(idToken), iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(platform.signingKey.privateKey);
    };
    const back = await signIn(code, pupil('pairwise-expired'));
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(back.auth).toBeUndefined();
  });

  test('an ID token for another nonce (a replayed token) is refused', async () => {
    const { code } = await schoolWithPlatform();
    platform.tamper = (idToken) =>
      new SignJWT({ ...decodeJwt(idToken), nonce: 'an-older-sign-in' })
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(platform.signingKey.privateKey);
    const back = await signIn(code, pupil('pairwise-nonce'));
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
  });

  test('a platform that does not answer is "unavailable"; one that returns an error instead of a code is "refused"', async () => {
    // Added while it answered; down when its discovery document, kept an hour, is read again.
    const gone = await startPlatform();
    const { code: down } = await schoolWithPlatform({ issuer: gone.issuer });
    await gone.close();
    const ctx = server.app.ctx;
    const now = ctx.now;
    ctx.now = () => now() + 2 * 3_600_000;
    try {
      const start = new URL(`/edu/school-sign-in/${down}/start`, server.url);
      start.searchParams.set('redirect', `${server.url}/account`);
      const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
      expect(redirectTarget(started)).toBe(`${server.url}/?school=${down}&error=unavailable`);
    } finally {
      ctx.now = now;
    }

    const { code } = await schoolWithPlatform();
    const round = await atPlatform(code, pupil('pairwise-declined'));
    const declined = new URL(round.callback);
    declined.searchParams.delete('code');
    declined.searchParams.set('error', 'access_denied');
    const back = await backAtEduPass(declined, round.stateCookie);
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(back.auth).toBeUndefined();
  });

  test('a platform naming itself with a trailing slash is taken; its key set out of reach is "unavailable", and back, sign-ins work again', async () => {
    const slashed = await startPlatform({ trailingSlash: true });
    try {
      expect(slashed.issuer).toMatch(/\/$/);
      // The operator types the issuer as people write it; the ID tokens carry the document's spelling.
      const { code } = await schoolWithPlatform({ issuer: slashed.issuer.replace(/\/$/, '') });
      slashed.jwksDown = true;
      const down = await signIn(code, pupil('pairwise-slash'), slashed);
      expect(down.landed).toBe(`${server.url}/?school=${code}&error=unavailable`);
      expect(down.auth).toBeUndefined();
      slashed.jwksDown = false;
      let issued = '';
      slashed.tamper = async (idToken) => {
        issued = idToken;
        return idToken;
      };
      const up = await signIn(code, pupil('pairwise-slash'), slashed);
      expect(up.landed).toBe(`${server.url}/account`);
      expect(up.auth).toMatch(/^authorization=./);
      expect(decodeJwt(issued).iss).toBe(slashed.issuer);
    } finally {
      await slashed.close();
    }
  });

  test('a plain OAuth2 platform: named endpoints, client_secret_post, the person read from userinfo', async () => {
    const { schoolId, code } = await schoolWithPlatform(oauth2Settings(), {
      subject: 'sub',
      role_attribute: 'eduperson_affiliation',
      class_attribute: 'class',
    });
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '四年级(1)班');
    const round = await signIn(code, pupil('pairwise-oauth2', '四年级(1)班'));
    expect(round.authorizeUrl.searchParams.get('nonce')).toBeNull();
    expect(platform.tokenRequests.at(-1)?.get('client_secret')).toBe(CLIENT.secret);
    expect((await membershipsOf(round.auth)).classes).toEqual([expect.objectContaining({ id: classId })]);
  });

  test('a token endpoint that answers with a redirect is not followed: the code and the client secret go nowhere else', async () => {
    // The configured token endpoint sends EduPass on (307 keeps the POST and its body) to the platform's.
    const posted: string[] = [];
    const redirector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        posted.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(307, { location: `${platform.issuer}/token` }).end();
      });
    });
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    try {
      const tokenEndpoint = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/token`;
      const { code } = await schoolWithPlatform(
        { ...oauth2Settings(), token_endpoint: tokenEndpoint },
        { subject: 'sub', role_attribute: 'eduperson_affiliation' },
      );
      const tokenRequests = platform.tokenRequests.length;
      const round = await signIn(code, pupil('pairwise-redirected'));
      expect(round.landed).toBe(`${server.url}/?school=${code}&error=unavailable`);
      expect(round.auth).toBeUndefined();
      expect(new URLSearchParams(posted[0]).get('client_secret'), 'EduPass posted to the configured address').toBe(
        CLIENT.secret,
      );
      expect(posted).toHaveLength(1);
      expect(platform.tokenRequests.length, 'nothing reached the address the redirect named').toBe(tokenRequests);
    } finally {
      await new Promise((done) => redirector.close(done));
    }
  });
});

/** The platform's sign-out page (oidc-provider's RP-initiated logout), confirmed "yes, sign me out" in `browser`. */
const signOutAtPlatform = async (browser: PlatformBrowser, at: Platform = platform) => {
  const page = await browser.request(`${at.issuer}/session/end`);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
  expect(xsrf, 'the platform shows its sign-out form').toBeTruthy();
  const confirmed = await browser.request(`${at.issuer}/session/end/confirm`, {
    form: { xsrf: xsrf ?? '', logout: 'yes' },
  });
  expect([302, 303], confirmed.body).toContain(confirmed.status);
};

/** Whether the EduPass session behind a sign-in's cookie still answers. */
const stillSignedIn = async (auth: string | undefined) =>
  (await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } })).status === 200;

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

describe('shared computers: the platform’s password at every sign-in (force_sign_in)', () => {
  test('prompt=login and max_age=0: the next pupil signs in as themselves, not as the last one left signed in', async () => {
    const { code: shared } = await schoolWithPlatform({ force_sign_in: true });
    const { code: usual } = await schoolWithPlatform();
    // The last pupil signed in at the platform on this computer and left.
    const computer = cookieBrowser();
    const last = await signIn(usual, pupil('pairwise-last-pupil'), platform, computer);
    // Without the setting, the platform's session signs the next pupil in as the last one.
    const sso = await signIn(usual, pupil('pairwise-next-pupil'), platform, computer);
    expect(await accountOf(sso.auth)).toBe(await accountOf(last.auth));
    // With it, the platform asks who is there, and auth_time says it did.
    const next = await signIn(shared, pupil('pairwise-next-pupil'), platform, computer);
    expect(next.authorizeUrl.searchParams.get('prompt')).toBe('login');
    expect(next.authorizeUrl.searchParams.get('max_age')).toBe('0');
    expect(next.auth).toMatch(/^authorization=./);
    expect(await accountOf(next.auth)).not.toBe(await accountOf(last.auth));
  });

  test.each([
    ['an auth_time from before the sign-in started', { auth_time: Math.floor(Date.now() / 1000) - 15 * 60 }],
    ['no auth_time', { auth_time: undefined }],
  ])('a platform that answers from its session (%s) is refused', async (_name, change) => {
    const { code } = await schoolWithPlatform({ force_sign_in: true });
    platform.tamper = (idToken) =>
      new SignJWT({ ...decodeJwt(idToken), ...change })
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(platform.signingKey.privateKey);
    const back = await signIn(code, pupil('pairwise-stale-session'));
    expect(back.landed).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(back.auth).toBeUndefined();
  });

  test('a plain OAuth2 platform cannot promise it: the setting is refused there', async () => {
    const schoolId = await edu.addSchool('实验小学');
    const added = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
      code: `oauth2-shared-${++codes}`,
      kind: 'oidc',
      name: '区教育云平台',
      settings: { ...oauth2Settings(), client_secret: CLIENT.secret, force_sign_in: true },
    });
    expectError(added, 'E_1');
    expect(added.body).toMatchObject({ error_message: expect.stringContaining('force_sign_in needs protocol') });
  });
});

describe('signing out at the platform too (sign_out_at_school, RP-Initiated Logout 1.0)', () => {
  test('the platform’s end-session endpoint with the sign-in’s ID token; signed out there, the next pupil is not the last one', async () => {
    const { code } = await schoolWithPlatform({ sign_out_at_school: true });
    const computer = cookieBrowser();
    const last = await signIn(code, pupil('pairwise-signs-out'), platform, computer);
    const url = new URL(await edu.schoolSignOutAddress(last.auth));
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.issuer}/session/end`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.id);
    const signedOut = `${server.url}/?notice=signed-out`;
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(signedOut);
    const idToken = url.searchParams.get('id_token_hint') ?? '';
    expect(decodeJwt(idToken).sub).toBe('pairwise-signs-out');
    // Kept sealed, never as it is.
    const kept = await edu.lastSignOutKept();
    expect(kept).toMatch(/./);
    expect(kept).not.toContain(idToken.split('.')[1]);
    // The platform asks whether to sign out; the pupil says yes and comes back to the sign-in screen.
    const asked = await computer.request(url.href);
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(asked.body)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(asked.body)?.[1] ?? '';
    const answered = await computer.request(new URL(action, url).href, { form: { xsrf, logout: 'yes' } });
    expect(answered.location).toBe(signedOut);
    // The platform's session is over: the next pupil on this computer signs in as themselves.
    const next = await signIn(code, pupil('pairwise-after-sign-out'), platform, computer);
    expect(await accountOf(next.auth)).not.toBe(await accountOf(last.auth));
  });

  test('without the setting no address, and no ID token kept; refused for a plain OAuth2 platform', async () => {
    const { code } = await schoolWithPlatform();
    const signedIn = await signIn(code, pupil('pairwise-no-sign-out'));
    expect(await edu.schoolSignOutAddress(signedIn.auth)).toBe('');
    expect(await edu.lastSignOutKept()).toBeNull();
    const schoolId = await edu.addSchool('实验小学');
    const added = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
      code: `oauth2-sign-out-${++codes}`,
      kind: 'oidc',
      name: '区教育云平台',
      settings: { ...oauth2Settings(), client_secret: CLIENT.secret, sign_out_at_school: true },
    });
    expectError(added, 'E_1');
    expect(added.body).toMatchObject({ error_message: expect.stringContaining('sign_out_at_school needs protocol') });
  });
});

describe('back-channel logout from an OpenID Connect platform (Back-Channel Logout 1.0)', () => {
  let connectorReady: Promise<unknown> | undefined;
  /** The connector whose platform client posts logouts to EduPass (added once: its code is registered). */
  const logoutConnector = () => {
    connectorReady ??= schoolWithPlatform({ client_id: LOGOUT_CLIENT }, undefined, LOGOUT_CONNECTOR);
    return connectorReady;
  };
  const logoutUri = () => `${server.url}/edu/school-sign-in/${LOGOUT_CONNECTOR}/oidc/logout`;
  const postLogout = (token: string, uri = logoutUri()) =>
    fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }).toString(),
    });
  /** A sign-in through the logout connector, with the ID token the platform issued for it. */
  const signInKeepingIdToken = async (person: Person, browser?: PlatformBrowser) => {
    let idToken = '';
    platform.tamper = async (issued) => {
      idToken = issued;
      return issued;
    };
    const round = await signIn(LOGOUT_CONNECTOR, person, platform, browser);
    expect(round.auth).toMatch(/^authorization=./);
    return { ...round, idToken, claims: decodeJwt(idToken) };
  };
  /** A logout token as the platform signs them, with `claims` over the usual ones. */
  const logoutToken = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: platform.issuer,
      aud: LOGOUT_CLIENT,
      iat: now,
      exp: now + 120,
      jti: crypto.randomUUID(),
      events: { [LOGOUT_EVENT]: {} },
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid, typ: 'logout+jwt', ...header })
      .sign(platform.signingKey.privateKey);
  };

  test('signing out at the platform ends the EduPass sessions that platform session started, and no others', async () => {
    await logoutConnector();
    // Two EduPass sign-ins in one platform session, one in another platform session of the same
    // person, and someone else's.
    const first = await signInKeepingIdToken(pupil('pairwise-bcl-a'));
    const second = await signInKeepingIdToken(pupil('pairwise-bcl-a'), first.browser);
    const elsewhere = await signInKeepingIdToken(pupil('pairwise-bcl-a'));
    const other = await signInKeepingIdToken(pupil('pairwise-bcl-b'));
    expect(first.claims.sid, 'the platform names its session in the ID token').toEqual(expect.any(String));
    expect(second.claims.sid).toBe(first.claims.sid);
    expect(elsewhere.claims.sid).not.toBe(first.claims.sid);
    // Only HMACs of the platform's session and person are kept.
    const rows = await server.app.ctx.db.selectFrom('school_sign_ins').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(String(first.claims.sid));
    expect(JSON.stringify(rows)).not.toContain('pairwise-bcl-a');

    const sent = platform.logoutsSent.length;
    await signOutAtPlatform(first.browser);
    expect(platform.logoutsSent.slice(sent)).toEqual([{ clientId: LOGOUT_CLIENT, ok: true }]);
    expect(await stillSignedIn(first.auth)).toBe(false);
    expect(await stillSignedIn(second.auth)).toBe(false);
    expect(await stillSignedIn(elsewhere.auth)).toBe(true);
    expect(await stillSignedIn(other.auth)).toBe(true);
  });

  test('a logout token naming only the person ends every session they started through the platform', async () => {
    await logoutConnector();
    const one = await signInKeepingIdToken(pupil('pairwise-bcl-sub'));
    const two = await signInKeepingIdToken(pupil('pairwise-bcl-sub'));
    const other = await signInKeepingIdToken(pupil('pairwise-bcl-sub-other'));
    expect((await postLogout(await logoutToken({ sub: one.claims.sub }))).status).toBe(204);
    expect(await stillSignedIn(one.auth)).toBe(false);
    expect(await stillSignedIn(two.auth)).toBe(false);
    expect(await stillSignedIn(other.auth)).toBe(true);
    // `sub` and `sid` together: that person in that session only; a `sid` of someone else's ends nothing.
    const three = await signInKeepingIdToken(pupil('pairwise-bcl-sub'));
    expect((await postLogout(await logoutToken({ sub: one.claims.sub, sid: other.claims.sid }))).status).toBe(204);
    expect(await stillSignedIn(other.auth)).toBe(true);
    expect(await stillSignedIn(three.auth)).toBe(true);
  });

  test('forged, misaddressed, stale, mistyped or incomplete logout tokens are E_1 and end nothing; a copy is taken once', async () => {
    await logoutConnector();
    const target = await signInKeepingIdToken(pupil('pairwise-bcl-target'));
    const names = { sub: target.claims.sub, sid: target.claims.sid };
    const { privateKey: forger } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const withoutClaim = async (claim: string) => {
      const token = decodeJwt(await logoutToken(names));
      delete token[claim];
      return new SignJWT(token)
        .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
        .sign(platform.signingKey.privateKey);
    };
    const refused: [string, string | Promise<string>, RegExp][] = [
      [
        'signed with another key under the same key id',
        new SignJWT({ ...decodeJwt(await logoutToken(names)) })
          .setProtectedHeader({ alg: 'RS256', kid: platform.signingKey.kid })
          .sign(forger),
        /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/,
      ],
      [
        'signed with the client secret (HS256)',
        new SignJWT({ ...decodeJwt(await logoutToken(names)) })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode(CLIENT.secret)),
        /ERR_JOSE_ALG_NOT_ALLOWED/,
      ],
      [
        'for another client',
        logoutToken({ ...names, aud: `${CLIENT.id}-post` }),
        /ERR_JWT_CLAIM_VALIDATION_FAILED \(.*"aud"/,
      ],
      [
        'from another issuer',
        logoutToken({ ...names, iss: 'https://other.example' }),
        /ERR_JWT_CLAIM_VALIDATION_FAILED \(.*"iss"/,
      ],
      ['issued ten minutes ago', logoutToken({ ...names, iat: now - 600, exp: now + 60 }), /ERR_JWT_EXPIRED \(.*"iat"/],
      ['expired', logoutToken({ ...names, iat: now - 200, exp: now - 100 }), /ERR_JWT_EXPIRED \(.*"exp"/],
      [
        'without the logout event',
        logoutToken({ ...names, events: { 'urn:other-event': {} } }),
        /no back-channel logout event/,
      ],
      ['with a nonce (an ID token)', logoutToken({ ...names, nonce: 'n-0S6_WzA2Mj' }), /carries a nonce/],
      ['naming neither sid nor sub', logoutToken({ sub: undefined }), /names no sid or sub/],
      ['typed as an access token', logoutToken(names, { typ: 'at+jwt' }), /typ at\+jwt/],
      ['without a jti', withoutClaim('jti'), /ERR_JWT_CLAIM_VALIDATION_FAILED \(.*"jti"/],
      ['without iat', withoutClaim('iat'), /ERR_JWT_CLAIM_VALIDATION_FAILED \(.*"iat"/],
      [
        'the sign-in’s own ID token',
        target.idToken,
        /ERR_JWT_CLAIM_VALIDATION_FAILED|no back-channel logout event|nonce/,
      ],
      ['not a JWT', 'logout', /ERR_JWS_INVALID|ERR_JWT_INVALID/],
    ];
    for (const [what, token, reason] of refused) {
      const answer = await postLogout(await token);
      const body = (await answer.json()) as { error_code: string; error_message: string };
      expect([answer.status, body.error_code], what).toEqual([400, 'E_1']);
      expect(body.error_message, what).toMatch(reason);
      expect(await stillSignedIn(target.auth), what).toBe(true);
    }

    // A good token, posted four times at once: one ends the session, the copies are refused.
    const token = await logoutToken(names);
    const answers = await Promise.all(Array.from({ length: 4 }, () => postLogout(token)));
    expect(answers.map((a) => a.status).sort()).toEqual([204, 400, 400, 400]);
    expect(await stillSignedIn(target.auth)).toBe(false);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(((await answer.json()) as { error_message: string }).error_message).toBe(
        'logout_token: this token was used already.',
      );
    }
  });

  test('a logout for a connector that is not an OpenID Connect platform, or none, is refused; a missing token is E_1', async () => {
    const { code: oauth2 } = await schoolWithPlatform(oauth2Settings());
    const token = await logoutToken({ sub: 'pairwise-bcl-nobody' });
    const asOauth2 = await postLogout(token, `${server.url}/edu/school-sign-in/${oauth2}/oidc/logout`);
    expect(asOauth2.status).toBe(400);
    expect(((await asOauth2.json()) as { error_message: string }).error_message).toMatch(/plain OAuth2/);
    expect((await postLogout(token, `${server.url}/edu/school-sign-in/no-such-school/oidc/logout`)).status).toBe(404);
    const empty = await fetch(logoutUri(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(((await empty.json()) as { error_code: string }).error_code).toBe('E_1');
  });
});

describe('education-platform connectors in the admin API', () => {
  test('the client secret is sealed and never shown; the redirect URI to register is', async () => {
    const { code, connector } = await schoolWithPlatform();
    expect(connector.settings).toMatchObject({
      preset: 'oidc',
      protocol: 'oidc',
      redirect_uri: `${server.url}/edu/school-sign-in/${code}/oidc`,
      backchannel_logout_uri: `${server.url}/edu/school-sign-in/${code}/oidc/logout`,
    });
    const listed = await operatorCall('GET', routes.listSchoolConnectors.path);
    expect(JSON.stringify(listed.body)).not.toContain(CLIENT.secret);
    expect(JSON.stringify(listed.body)).not.toContain('client_secret_sealed');
    const row = await server.app.ctx.db
      .selectFrom('school_connectors')
      .select('settings')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    expect(row.settings).not.toContain(CLIENT.secret);
  });

  test('bad settings are E_1, never a 500', async () => {
    const schoolId = await edu.addSchool('设置有误的学校');
    const add = (settings: unknown) =>
      operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
        code: `bad-${++codes}`,
        kind: 'oidc',
        name: '平台',
        settings,
      });
    const good = { issuer: platform.issuer, client_id: 'c', client_secret: 's' };
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((done) => closed.close(() => done()));
    // The issuer's discovery document is read when the connector is added: none, or another issuer's.
    for (const issuer of [nobody, `${platform.issuer}/tenant`, server.url]) {
      const answer = await add({ ...good, issuer });
      expectError(answer, 'E_1');
      expect((answer.body as { error_message: string }).error_message).toMatch(/^settings.issuer: /);
    }
    for (const settings of [
      'not an object',
      { ...good, preset: 'no-such-preset' },
      { ...good, preset: 'constructor' },
      { ...good, issuer: 'http://platform.example.edu' },
      { ...good, issuer: 'https://platform.example.edu/?x=1' },
      { ...good, client_secret: '' },
      { ...good, scopes: ['profile'] },
      { ...good, scopes: ['open id'] },
      { ...good, token_auth: 'private_key_jwt' },
      { ...good, protocol: 'saml' },
      { preset: 'smartedu', client_id: 'c', client_secret: 's' },
    ]) {
      expectError(await add(settings), 'E_1');
    }
  });

  test('the mapping is edited (audited), checked, and the next sign-in reads it', async () => {
    const { schoolId, code, connector } = await schoolWithPlatform();
    const put = (mapping: unknown) =>
      operatorCall('PUT', pathOf(routes.setSchoolConnectorMapping.path, { id: connector.id }), { mapping });
    expectError(await put({ nonsense: 'x' }), 'E_1');
    expectError(await put({ subject: 'has space' }), 'E_1');
    expectError(await put('text'), 'E_1');
    const changed = edu.ok<{ mapping: Record<string, unknown> }>(
      await put({ role_attribute: 'eduperson_affiliation', teacher_values: ['student'] }),
    );
    expect(changed.mapping).toMatchObject({ subject: 'sub', teacher_values: ['student'] });
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('action', '=', 'school.connector.mapping')
      .execute();
    expect(audit).toContainEqual({ action: 'school.connector.mapping', detail: `oidc ${code}` });
    const signedIn = await signIn(code, pupil('pairwise-remapped'));
    expect((await membershipsOf(signedIn.auth)).schools).toEqual([
      expect.objectContaining({ id: schoolId, role: 'teacher' }),
    ]);
    expectError(
      await operatorCall('PUT', pathOf(routes.setSchoolConnectorMapping.path, { id: 999_999 }), { mapping: {} }),
      'E_2',
    );
  });
});

describe('editing an education-platform connector', () => {
  test('the client secret is rotated: the next sign-in uses the new one, the old one is refused by the platform, identity links stay', async () => {
    const { code, connector } = await schoolWithPlatform();
    const edit = (body: unknown) =>
      operatorCall('PATCH', pathOf(routes.editSchoolConnector.path, { id: connector.id }), body);
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    const first = await signIn(code, pupil('pairwise-rotate'));
    const sealedBefore = (
      await server.app.ctx.db
        .selectFrom('school_connectors')
        .select('settings')
        .where('id', '=', connector.id)
        .executeTakeFirstOrThrow()
    ).settings;
    const newSecret = 'rotated-platform-secret-9876543210';
    platform.rotatedSecret = newSecret;
    try {
      // The platform refuses the old secret: the sign-in fails until the operator sets the new one.
      const refused = await signIn(code, pupil('pairwise-rotate'));
      expect(refused.landed).toBe(`${server.url}/?school=${code}&error=refused`);
      // A blank secret with another change keeps the sealed one.
      const renamed = edu.ok<{ name: string; settings: Record<string, unknown> }>(
        await edit({ name: '区教育云平台(新)', settings: { client_secret: '', scopes: ['openid', 'profile', 'edu'] } }),
      );
      expect(renamed.name).toBe('区教育云平台(新)');
      const kept = await server.app.ctx.db
        .selectFrom('school_connectors')
        .select('settings')
        .where('id', '=', connector.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(kept.settings).client_secret_sealed).toBe(JSON.parse(sealedBefore).client_secret_sealed);

      const rotated = edu.ok<{ settings: Record<string, unknown> }>(
        await edit({ settings: { client_secret: newSecret } }),
      );
      expect(JSON.stringify(rotated)).not.toContain(newSecret);
      expect(rotated.settings).not.toHaveProperty('client_secret_sealed');
      const again = await signIn(code, pupil('pairwise-rotate'));
      expect(again.auth).toMatch(/^authorization=./);
      expect(await me(again.auth)).toBe(await me(first.auth));
    } finally {
      platform.rotatedSecret = undefined;
    }
    const stored = await server.app.ctx.db
      .selectFrom('school_connectors')
      .select('settings')
      .where('id', '=', connector.id)
      .executeTakeFirstOrThrow();
    expect(stored.settings).not.toContain(newSecret);
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('action', '=', 'school.connector.settings')
      .execute();
    expect(audit).toContainEqual({ action: 'school.connector.settings', detail: `oidc ${code}: name` });
    expect(audit).toContainEqual({ action: 'school.connector.settings', detail: `oidc ${code}: client_secret` });
    expect(JSON.stringify(audit)).not.toContain(newSecret);
  });

  test('issuer, endpoints, scopes and client id are edited with the add’s checks; bad values are E_1', async () => {
    const { code, connector } = await schoolWithPlatform();
    const edit = (body: unknown) =>
      operatorCall('PATCH', pathOf(routes.editSchoolConnector.path, { id: connector.id }), body);
    for (const settings of [
      { preset: 'no-such-preset' },
      { issuer: 'http://platform.example.edu' },
      { issuer: '' },
      { scopes: ['profile'] },
      { scopes: ['open id'] },
      { token_auth: 'private_key_jwt' },
      { protocol: 'oauth2' },
      { client_id: '' },
      { client_secret: 7 },
      { client_secret_sealed: 'forged' },
      { redirect_uri: 'https://evil.example/cb' },
      { backchannel_logout_uri: 'https://evil.example/logout' },
    ]) {
      expectError(await edit({ settings }), 'E_1');
    }
    // The platform's other client (client_secret_post) with named endpoints, as plain OAuth2.
    const edited = edu.ok<{ code: string; kind: string; settings: Record<string, unknown> }>(
      await edit({
        settings: {
          protocol: 'oauth2',
          client_id: `${CLIENT.id}-post`,
          token_auth: 'client_secret_post',
          authorization_endpoint: `${platform.issuer}/auth`,
          token_endpoint: `${platform.issuer}/token`,
          userinfo_endpoint: `${platform.issuer}/me`,
        },
      }),
    );
    expect(edited).toMatchObject({ code, kind: 'oidc' });
    expect(edited.settings).toMatchObject({ protocol: 'oauth2', issuer: '', client_id: `${CLIENT.id}-post` });
    const round = await signIn(code, pupil('pairwise-edited-oauth2'));
    expect(round.auth).toMatch(/^authorization=./);
    expect(platform.tokenRequests.at(-1)?.get('client_id')).toBe(`${CLIENT.id}-post`);
  });
});

describe('education-platform connectors on the command line', () => {
  test('add with a preset and a secret file, set the mapping, disable and enable: the same checks as the console', async () => {
    const ctx = server.app.ctx;
    const schoolId = await edu.addSchool('命令行小学');
    const secretFile = join(mkdtempSync(join(tmpdir(), 'edupass-cli-')), 'secret');
    writeFileSync(secretFile, `${CLIENT.secret}\n`);
    const code = `platform-${++codes}`;
    const added = await runSchools(ctx, ['connector', 'add', String(schoolId), code], {
      type: 'oidc',
      name: '区教育云平台',
      preset: 'oidc',
      issuer: platform.issuer,
      'client-id': CLIENT.id,
      'client-secret-file': secretFile,
      scopes: 'openid profile edu',
    });
    expect(added).toContain(`${code}  oidc  school ${schoolId}`);
    expect(added).not.toContain(CLIENT.secret);
    const signedIn = await signIn(code, pupil('pairwise-cli'));
    expect(signedIn.auth).toMatch(/^authorization=./);

    const row = await ctx.db
      .selectFrom('school_connectors')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    const id = String(row.id);
    expect(await runSchools(ctx, ['connector', 'mapping', id, '{"class_attribute":"klass"}'], {})).toContain(
      '"class_attribute":"klass"',
    );
    await expect(runSchools(ctx, ['connector', 'mapping', id, '{"bad":1}'], {})).rejects.toThrow(/mapping.bad/);
    await expect(runSchools(ctx, ['connector', 'disable', 'x'], {})).rejects.toThrow(/whole number/);
    expect(await runSchools(ctx, ['connector', 'disable', id], {})).toContain('(off)');
    const refused = await fetch(new URL(`/edu/school-sign-in/${code}/start?redirect=${server.url}/`, server.url), {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(redirectTarget(refused)).toBe(`${server.url}/?school=${code}&error=refused`);
    expect(await runSchools(ctx, ['connector', 'enable', id], {})).not.toContain('(off)');

    // `set`: the name and the settings given, checked as the console's edit; a secret file rotates the secret.
    const sealed = async () =>
      JSON.parse(
        (
          await ctx.db
            .selectFrom('school_connectors')
            .select('settings')
            .where('code', '=', code)
            .executeTakeFirstOrThrow()
        ).settings,
      ).client_secret_sealed as string;
    const before = await sealed();
    const renamed = await runSchools(ctx, ['connector', 'set', id], {
      name: '区教育云(新)',
      scopes: 'openid profile edu',
    });
    expect(renamed).toContain('区教育云(新)');
    expect(await sealed()).toBe(before);
    await expect(runSchools(ctx, ['connector', 'set', id], { issuer: 'http://platform.example.edu' })).rejects.toThrow(
      /issuer/,
    );
    await expect(runSchools(ctx, ['connector', 'set', id], {})).rejects.toThrow(/Name what to change/);
    expect(await runSchools(ctx, ['connector', 'set', id], { 'client-secret-file': secretFile })).not.toContain(
      CLIENT.secret,
    );
    expect(await sealed()).not.toBe(before);
    expect((await signIn(code, pupil('pairwise-cli'))).auth).toMatch(/^authorization=./);
    await expect(
      runSchools(ctx, ['connector', 'add', String(schoolId), `platform-${++codes}`], {
        type: 'oidc',
        name: 'x',
        issuer: platform.issuer,
        'client-id': 'c',
        'client-secret-file': '/no/such/file',
      }),
    ).rejects.toThrow(/client-secret-file/);
  });
});

/**
 * Signing in through a SAML federation (CARSI-shaped) against samlify as the identity provider: the
 * federation's signed metadata is read and refreshed (keeping the last good copy), a pupil and a
 * teacher sign in and land in the school by eduPersonAffiliation, only an HMAC of the opaque pairwise
 * id is kept, and a corpus of forged responses is refused, each in its own test. Runs on SQLite and
 * PostgreSQL: a replayed response raced against itself must lose on both.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type EduMemberships, routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { hiddenFields } from '@edupass/test-kit/html-form';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import {
  ATTRIBUTES,
  FEDERATION_CERT,
  type LogoutFields,
  type ResponseFields,
  type SamlFederation,
  type SamlPerson,
  startSamlFederation,
} from '@edupass/test-kit/saml-federation';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { durationMs } from '../../../../adapters/saml-metadata.ts';
import { deleteSetting, findSetting, putSetting } from '../../../../store/admin/settings.ts';
import { spSigningKey } from './sp-key.ts';

/** The server's warnings: each refusal is logged with why. */
const warnings: string[] = [];
const { server, call } = useOauthTestServer(
  {},
  { logger: { level: 'warn', stream: { write: (line: string) => warnings.push(line) } } },
);
/** Why the last refused SAML message was refused, as logged. */
const lastRefusal = () => (JSON.parse(warnings.at(-1) ?? '{}') as { err?: string }).err ?? '';
const edu = eduSteps(server, call);
let federation: SamlFederation;
beforeAll(async () => {
  federation = await startSamlFederation(() => server.url);
});
afterAll(() => federation.close());

const realNow = { now: undefined as (() => number) | undefined };
/** Moves the server's clock by `ms` for the rest of the test. */
const moveClock = (ms: number) => {
  const ctx = server.app.ctx;
  realNow.now ??= ctx.now;
  const base = realNow.now;
  ctx.now = () => base() + ms;
};
afterEach(() => {
  if (realNow.now) server.app.ctx.now = realNow.now;
  realNow.now = undefined;
  federation.serveMetadata('good');
});

let codes = 0;
const samlSettings = (extra: Record<string, unknown> = {}) => ({
  metadata_url: federation.metadataUrl,
  federation_cert: FEDERATION_CERT,
  idp_entity_id: federation.idp.entityId,
  ...extra,
});

/** A school with a SAML connector for the federation's institution; its code and id. */
const schoolWithSaml = async (settings = samlSettings()) => {
  const schoolId = await edu.addSchool('北方示范大学附属中学');
  const code = `beifang-${++codes}`;
  const added = await call(
    'POST',
    pathOf(routes.addSchoolConnector.path, { id: schoolId }),
    { code, kind: 'saml', name: '北方示范大学', settings },
    { token: await edu.operatorToken() },
  );
  edu.ok(added);
  return { schoolId, code };
};

interface Started {
  cookie: string;
  requestId: string;
  relayState: string;
  /** The AuthnRequest's ForceAuthn attribute, if it has one. */
  forceAuthn?: string | undefined;
}

/** The start in a browser: the state cookie, and the AuthnRequest's ID read from the redirect. */
const start = async (code: string): Promise<Started> => {
  const url = new URL(routes.startSchoolSignIn.path.replace(':code', code), server.url);
  url.searchParams.set('redirect', `${server.url}/account`);
  const started = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  const sso = new URL(redirectTarget(started));
  expect(`${sso.origin}${sso.pathname}`).toBe(federation.idp.entityId.replace('/shibboleth', '/sso'));
  const request = inflateRawSync(Buffer.from(sso.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  return {
    cookie: cookieSet(started, 'edupass_school') ?? '',
    requestId: /\sID="([^"]+)"/.exec(request)?.[1] ?? '',
    relayState: sso.searchParams.get('RelayState') ?? '',
    forceAuthn: /\sForceAuthn="([^"]+)"/.exec(request)?.[1],
  };
};

/** The browser's POST of a response to the ACS: where it landed and the session cookie, if any. */
const post = async (started: Started, samlResponse: string) => {
  const answer = await fetch(new URL(routes.finishSamlSignIn.path, server.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: started.cookie },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: started.relayState }).toString(),
  });
  return { landed: redirectTarget(answer), auth: cookieSet(answer, 'authorization') };
};

/** The whole round trip through the identity provider's pages, as a browser makes it. */
const signInThroughIdp = async (code: string, person: SamlPerson) => {
  const url = new URL(routes.startSchoolSignIn.path.replace(':code', code), server.url);
  url.searchParams.set('redirect', `${server.url}/account`);
  const started = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  federation.signInAs(person);
  const form = hiddenFields(await (await fetch(redirectTarget(started))).text());
  return post(
    { cookie: cookieSet(started, 'edupass_school') ?? '', requestId: '', relayState: form.RelayState ?? '' },
    form.SAMLResponse ?? '',
  );
};

const membershipsOf = async (auth: string | undefined) =>
  edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } }));

let people = 0;
const student = (): SamlPerson => ({
  attributes: {
    [ATTRIBUTES.pairwiseId]: [`${String(++people).padStart(4, '0')}pw8x2kq@beifang.edu.cn`],
    [ATTRIBUTES.affiliation]: ['student'],
    [ATTRIBUTES.displayName]: ['王小明'],
  },
});

const refused = (code: string) => `${server.url}/?school=${code}&error=refused`;

describe('signing in through a SAML federation (samlify as the identity provider)', () => {
  test('a student signs in just in time and the same account comes back; only an HMAC of the pairwise id is kept', async () => {
    const { code } = await schoolWithSaml();
    const person = student();
    const first = await signInThroughIdp(code, person);
    expect(first.landed).toBe(`${server.url}/account`);
    expect(first.auth).toMatch(/^authorization=./);
    const again = await signInThroughIdp(code, person);
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    expect(await me(again.auth)).toBe(await me(first.auth));
    const pairwise = person.attributes[ATTRIBUTES.pairwiseId]?.[0] ?? '';
    const rows = await server.app.ctx.db.selectFrom('school_person_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(pairwise.slice(0, 8));
    const method = await server.app.ctx.db
      .selectFrom('sessions')
      .select('method')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(method.method).toBe('school_saml');
  });

  test('faculty (eduPersonAffiliation) land as approved teachers of the school; eduPersonTargetedID names them', async () => {
    const { schoolId, code } = await schoolWithSaml();
    const teacher: SamlPerson = {
      attributes: { [ATTRIBUTES.targetedId]: ['tid-7f3a9c'], [ATTRIBUTES.affiliation]: ['faculty', 'member'] },
    };
    const signedIn = await signInThroughIdp(code, teacher);
    expect((await membershipsOf(signedIn.auth)).schools).toEqual([
      expect.objectContaining({ id: schoolId, role: 'teacher', status: 'approved' }),
    ]);
    // A student lands in no school role (classes come from rosters, not from this federation).
    const pupil = await signInThroughIdp(code, student());
    expect((await membershipsOf(pupil.auth)).schools).toEqual([]);
  });

  test('a response naming nobody opaque (a transient NameID, no pairwise id) is refused', async () => {
    const { code } = await schoolWithSaml();
    const nameless = await signInThroughIdp(code, { attributes: { [ATTRIBUTES.affiliation]: ['student'] } });
    expect(nameless.auth).toBeUndefined();
    expect(nameless.landed).toBe(refused(code));
  });

  test('the service provider metadata names the entity, the POST consumer and signed assertions', async () => {
    const answer = await fetch(new URL(routes.samlServiceProvider.path, server.url));
    expect(answer.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await answer.text();
    expect(xml).toContain(`entityID="${server.url}/edu/school-sign-in/saml/metadata"`);
    expect(xml).toContain(`Location="${server.url}/edu/school-sign-in/saml/acs"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    // Single logout: one service over both bindings, and the key that signs the LogoutResponses;
    // AuthnRequests stay unsigned.
    for (const binding of ['HTTP-POST', 'HTTP-Redirect']) {
      expect(xml).toContain(
        `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${server.url}/edu/school-sign-in/saml/slo"/>`,
      );
    }
    expect(xml).toMatch(/<KeyDescriptor use="signing">[\s\S]*<ds:X509Certificate>MII/);
    expect(xml).toContain('AuthnRequestsSigned="false"');
  });
});

describe("EduPass's SAML signing key", () => {
  test('processes making it at the same moment all end up with one key, the one stored', async () => {
    const { ctx } = server.app;
    const entityId = `${server.url}/edu/school-sign-in/saml/metadata`;
    // The server's own key, put back afterwards: the identity provider holds the metadata with it.
    const kept = await findSetting(ctx.db, 'saml-sp-key');
    await deleteSetting(ctx.db, 'saml-sp-key');
    try {
      // Each copy of the context caches on its own, as separate processes do.
      const keys = await Promise.all([1, 2, 3, 4].map(() => spSigningKey({ ...ctx }, entityId)));
      expect(new Set(keys.map((key) => key.certPem)).size).toBe(1);
      expect(new Set(keys.map((key) => key.privateKeyPem)).size).toBe(1);
      const stored = JSON.parse((await findSetting(ctx.db, 'saml-sp-key')) ?? '{}') as { cert?: string };
      expect(stored.cert).toBe(keys[0]?.certPem);
    } finally {
      if (kept !== undefined) await putSetting(ctx.db, 'saml-sp-key', kept);
    }
  });
});

describe('shared computers: the password at every sign-in (force_sign_in, ForceAuthn)', () => {
  const fifteenMinutesAgo = () => new Date(Date.now() - 15 * 60_000).toISOString();

  test('the AuthnRequest asks for ForceAuthn, and an assertion from the identity provider’s older session is refused', async () => {
    const { code } = await schoolWithSaml(samlSettings({ force_sign_in: true }));
    const person = student();
    const fresh = await start(code);
    expect(fresh.forceAuthn).toBe('true');
    const signedIn = await post(fresh, await federation.respond(fresh.requestId, person));
    expect(signedIn.auth).toMatch(/^authorization=./);
    // An identity provider that answered from the session the last pupil left open.
    const stale = await start(code);
    const fromSession = await post(
      stale,
      await federation.respond(stale.requestId, person, { authnInstant: fifteenMinutesAgo() }),
    );
    expect(fromSession.landed).toBe(refused(code));
    expect(fromSession.auth).toBeUndefined();
  });

  test('without the setting, no ForceAuthn, and the identity provider’s session signs in (single sign-on)', async () => {
    const { code } = await schoolWithSaml();
    const started = await start(code);
    expect(started.forceAuthn).toBeUndefined();
    const signedIn = await post(
      started,
      await federation.respond(started.requestId, student(), { authnInstant: fifteenMinutesAgo() }),
    );
    expect(signedIn.auth).toMatch(/^authorization=./);
  });
});

describe('signing out at the identity provider too (sign_out_at_school)', () => {
  /** The browser's POST of a LogoutResponse to the single logout service: where it lands. */
  const postAnswer = async (samlResponse: string) =>
    redirectTarget(
      await fetch(new URL(routes.samlSingleLogout.path, server.url), {
        method: 'POST',
        redirect: 'manual',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      }),
    );
  const person = (): SamlPerson => ({
    nameId: `so-${++people}-k3v8`,
    attributes: { [ATTRIBUTES.affiliation]: ['student'] },
  });

  test('a LogoutRequest signed with EduPass’s key names the sign-in’s NameID and SessionIndex; the answer lands on the sign-in screen', async () => {
    const { code } = await schoolWithSaml(samlSettings({ sign_out_at_school: true }));
    const signedIn = await signInThroughIdp(code, person());
    const named = federation.lastSignIn();
    const url = new URL(await edu.schoolSignOutAddress(signedIn.auth));
    expect(`${url.origin}${url.pathname}`).toBe(federation.idp.entityId.replace('/shibboleth', '/slo'));
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // The browser goes there: the IdP checks the signature by the key in EduPass's metadata.
    const page = await (await fetch(url)).text();
    expect(federation.lastSignOut()).toEqual({
      verified: true,
      nameId: named?.nameId,
      sessionIndex: named?.sessionIndex,
    });
    expect(await postAnswer(hiddenFields(page).SAMLResponse ?? '')).toBe(`${server.url}/?notice=signed-out`);
  });

  test('a LogoutResponse signed by another institution, or from an IdP no school uses, says the school did not confirm', async () => {
    await schoolWithSaml(samlSettings({ sign_out_at_school: true }));
    const failed = `${server.url}/?notice=school-sign-out-failed`;
    expect(await postAnswer(await federation.logoutResponse('_a-request', 'other-idp'))).toBe(failed);
    const unsigned = Buffer.from(
      '<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="2026-01-01T00:00:00Z">' +
        `<saml:Issuer>${federation.idp.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`,
    ).toString('base64');
    expect(await postAnswer(unsigned)).toBe(failed);
    expect(await postAnswer(Buffer.from('<not-saml/>').toString('base64'))).toBe(failed);
    // Neither message, or both: E_1 for a program.
    const neither = await fetch(new URL(routes.samlSingleLogout.path, server.url), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'RelayState=x',
    });
    expect(neither.status).toBe(400);
  });

  test('without the setting: no address, and nothing about the IdP session kept for it', async () => {
    const { code } = await schoolWithSaml();
    const signedIn = await signInThroughIdp(code, person());
    expect(await edu.schoolSignOutAddress(signedIn.auth)).toBe('');
    expect(await edu.lastSignOutKept()).toBeNull();
  });
});

/** A deflated LogoutRequest from the institution naming someone else, and a DEFLATE bomb (4 MiB of spaces). */
const other = () =>
  deflateRawSync(
    Buffer.from(
      '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
        `ID="_someone" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
        `<saml:Issuer>${federation.idp.entityId}</saml:Issuer><saml:NameID>someone-else</saml:NameID></samlp:LogoutRequest>`,
    ),
  ).toString('base64');
const bomb = deflateRawSync(Buffer.alloc(4 * 1024 * 1024, ' ')).toString('base64');

describe('SAML single logout from the identity provider', () => {
  let code: string;
  beforeAll(async () => {
    code = (await schoolWithSaml()).code;
  });

  /** A signed-in session through the IdP, with how the IdP names it. */
  const session = async (person: SamlPerson) => {
    const { auth } = await signInThroughIdp(code, person);
    const signIn = federation.lastSignIn();
    if (auth === undefined || signIn === undefined) throw new Error('not signed in');
    return { auth, nameId: { value: signIn.nameId, format: signIn.format }, sessionIndex: signIn.sessionIndex };
  };
  const memberships = (auth: string) =>
    call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth } });
  const expectSignedIn = async (auth: string) => edu.ok(await memberships(auth));
  const expectSignedOut = async (auth: string) => expectError(await memberships(auth), 'E_0');

  /** The browser's POST of a LogoutRequest to the single logout service. */
  const postLogout = (samlRequest: string, accept = 'text/html') =>
    fetch(new URL(routes.samlSingleLogout.path, server.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLRequest: samlRequest, RelayState: 'idp-relay-7' }).toString(),
    });

  const withPersistentId = (): SamlPerson => ({
    nameId: `pn-${++people}-x7q2`,
    attributes: { [ATTRIBUTES.affiliation]: ['student'] },
  });

  test('ends the session the IdP names, and the browser takes a LogoutResponse back that samlify verifies by the metadata key', async () => {
    const person = withPersistentId();
    const first = await session(person);
    const second = await session(person);
    const { id, samlRequest } = await federation.logoutRequest(first.nameId, { sessionIndexes: [first.sessionIndex] });
    const answer = await postLogout(samlRequest);
    const back = new URL(redirectTarget(answer));
    expect(`${back.origin}${back.pathname}`).toBe(federation.idp.entityId.replace('/shibboleth', '/slo'));
    expect(back.searchParams.get('RelayState')).toBe('idp-relay-7');
    await fetch(back);
    expect(federation.lastLogoutResponse()).toEqual({
      verified: true,
      inResponseTo: id,
      status: 'urn:oasis:names:tc:SAML:2.0:status:Success',
    });
    await expectSignedOut(first.auth);
    await expectSignedIn(second.auth);
    // Naming no session: every session of the person ends.
    await postLogout((await federation.logoutRequest(second.nameId)).samlRequest);
    await expectSignedOut(second.auth);
  });

  test('a transient NameID names the one sign-in it was sent for', async () => {
    const one = await session(student());
    const other = await session(student());
    await postLogout((await federation.logoutRequest(one.nameId)).samlRequest);
    await expectSignedOut(one.auth);
    await expectSignedIn(other.auth);
  });

  /** A refused LogoutRequest: E_1 for a program, the site for a browser; the session lives on. */
  const expectLogoutRefused = async (samlRequest: string, alive: string) => {
    const answer = await postLogout(samlRequest, 'application/json');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error_code: 'E_1' });
    expect(redirectTarget(await postLogout(samlRequest))).toBe(`${server.url}/`);
    await expectSignedIn(alive);
  };

  test.each([
    ['unsigned', { signing: 'none' }],
    ["signed with another institution's key", { signing: 'other' }],
    ['changed after signing', { signing: 'altered' }],
    ['issued by another institution', { issuer: 'other' }],
    ['addressed to another endpoint', { destination: 'https://elsewhere.example/slo' }],
    ['past its NotOnOrAfter', { notOnOrAfter: new Date(Date.now() - 5 * 60_000).toISOString() }],
    ['issued ten minutes ahead', { issueInstant: new Date(Date.now() + 10 * 60_000).toISOString() }],
    ['with a comment inside the NameID', { comment: true }],
  ] as const)('a LogoutRequest %s is refused', async (_name, change) => {
    const victim = await session(withPersistentId());
    const { comment, issuer, ...fields } = change as LogoutFields & { comment?: boolean; issuer?: 'other' };
    const forged = await federation.logoutRequest(victim.nameId, {
      ...fields,
      ...(issuer ? { issuer: federation.other.entityId } : {}),
      ...(comment ? { nameIdXml: `${victim.nameId.value}<!---->` } : {}),
    });
    await expectLogoutRefused(forged.samlRequest, victim.auth);
  });

  describe('over HTTP-Redirect', () => {
    const visit = (url: URL | string, accept = 'text/html') => fetch(url, { redirect: 'manual', headers: { accept } });

    test('a signed request in the address ends the session, answered as the POST one is; a replay is refused', async () => {
      const person = withPersistentId();
      const first = await session(person);
      const second = await session(person);
      const url = await federation.logoutRedirect(first.nameId, [first.sessionIndex]);
      expect(`${url.origin}${url.pathname}`).toBe(`${server.url}${routes.samlSingleLogoutRedirect.path}`);
      const back = new URL(redirectTarget(await visit(url)));
      expect(`${back.origin}${back.pathname}`).toBe(federation.idp.entityId.replace('/shibboleth', '/slo'));
      expect(back.searchParams.get('RelayState')).toBe('idp-relay-9');
      await expectSignedOut(first.auth);
      await expectSignedIn(second.auth);
      await fetch(back);
      expect(federation.lastLogoutResponse()).toMatchObject({
        verified: true,
        status: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      });
      expect((await visit(url, 'application/json')).status).toBe(400);
    });

    /** Each field of the query replaced (`undefined`: left out), as an attacker edits the address. */
    const edit = (url: URL, change: Record<string, string | undefined>, extra = '') =>
      `${url.origin}${url.pathname}?${url.search
        .slice(1)
        .split('&')
        .flatMap((pair) => {
          const name = pair.slice(0, pair.indexOf('='));
          if (!(name in change)) return [pair];
          const value = change[name];
          return value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`];
        })
        .join('&')}${extra}`;

    test.each([
      ['unsigned', { Signature: undefined, SigAlg: undefined }, 'is not signed'],
      ['without its signature', { Signature: undefined }, 'is not signed'],
      ['claiming RSA-SHA1', { SigAlg: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' }, 'not RSA-SHA256'],
      ['with another RelayState', { RelayState: 'elsewhere' }, 'does not verify'],
      ['naming another person under the same signature', { SAMLRequest: 'other' }, 'does not verify'],
      ['inflating to megabytes', { SAMLRequest: 'bomb' }, 'sensible size'],
      // Refused as the query is read, before the request is: the answer says why.
      ['with SAMLRequest twice', {}, 'SAMLRequest'],
    ] as const)('a request %s is refused (logged why), the session kept', async (_name, change, why) => {
      const victim = await session(withPersistentId());
      const url = await federation.logoutRedirect(victim.nameId);
      const swapped: Record<string, string | undefined> = { ...change };
      if (swapped.SAMLRequest === 'other') swapped.SAMLRequest = other();
      if (swapped.SAMLRequest === 'bomb') swapped.SAMLRequest = bomb;
      const request = url.search
        .slice(1)
        .split('&')
        .find((pair) => pair.startsWith('SAMLRequest='));
      const twice = Object.keys(change).length === 0 ? `&${request}` : '';
      const address = edit(url, swapped, twice);
      const logged = warnings.length;
      const answer = await visit(address, 'application/json');
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error_code: string; error_message: string };
      expect(body.error_code).toBe('E_1');
      expect(warnings.length > logged ? lastRefusal() : body.error_message).toContain(why);
      expect(redirectTarget(await visit(address))).toBe(`${server.url}/`);
      await expectSignedIn(victim.auth);
    });
  });

  test.each([
    [
      'HTTP-POST',
      async (nameId: { value: string; format: string }) => {
        const { samlRequest } = await federation.logoutRequest(nameId);
        return () => postLogout(samlRequest, 'application/json');
      },
    ],
    [
      'HTTP-Redirect',
      async (nameId: { value: string; format: string }) => {
        const url = await federation.logoutRedirect(nameId);
        return () => fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } });
      },
    ],
  ] as const)(
    'a LogoutRequest over %s taken once: of four racing copies one ends the session, a replay is refused',
    async (_binding, deliverable) => {
      const victim = await session(withPersistentId());
      const deliver = await deliverable(victim.nameId);
      const answers = await Promise.all([1, 2, 3, 4].map(deliver));
      expect(answers.map((a) => a.status).sort()).toEqual([302, 400, 400, 400]);
      await expectSignedOut(victim.auth);
      expect((await deliver()).status).toBe(400);
    },
  );
});

describe('the federation metadata', () => {
  test('a connector whose certificate is not the federation’s, or whose institution is not listed, is refused', async () => {
    const operator = await edu.operatorToken();
    const schoolId = await edu.addSchool('证书不对的学校');
    const add = (settings: Record<string, unknown>) =>
      call(
        'POST',
        pathOf(routes.addSchoolConnector.path, { id: schoolId }),
        { code: `bad-${++codes}`, kind: 'saml', name: 'x', settings },
        { token: operator },
      );
    federation.serveMetadata('wrong-key');
    expectError(await add(samlSettings()), 'E_1');
    federation.serveMetadata('expired');
    expectError(await add(samlSettings()), 'E_1');
    federation.serveMetadata('good');
    expectError(await add(samlSettings({ idp_entity_id: 'https://nowhere.example/idp' })), 'E_1');
    expectError(await add(samlSettings({ federation_cert: 'not a certificate' })), 'E_1');
    expectError(await add(samlSettings({ metadata_url: 'http://metadata.example.org/carsi.xml' })), 'E_1');
  });

  test('refreshed after the interval; a failed or wrongly signed refresh keeps the last good copy', async () => {
    const { code } = await schoolWithSaml(samlSettings({ refresh_minutes: 5 }));
    const fetched = federation.metadataFetches();
    await start(code);
    expect(federation.metadataFetches()).toBe(fetched);
    moveClock(6 * 60_000);
    federation.serveMetadata('down');
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched + 1);
    // The failure is not retried at every sign-in, only after the interval again.
    await start(code);
    expect(federation.metadataFetches()).toBe(fetched + 1);
    moveClock(12 * 60_000);
    federation.serveMetadata('wrong-key');
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched + 2);
    moveClock(18 * 60_000);
    federation.serveMetadata('good');
    await start(code);
    expect(federation.metadataFetches()).toBe(fetched + 3);
  });
});

describe('editing a SAML connector', () => {
  test('the name and refresh interval change, checked against the federation as when added; the identity links stay', async () => {
    const { code } = await schoolWithSaml();
    const operator = await edu.operatorToken();
    const id = await edu.connectorId(code);
    const edit = (body: unknown) =>
      call('PATCH', pathOf(routes.editSchoolConnector.path, { id }), body, { token: operator });
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    const person = student();
    const first = await signInThroughIdp(code, person);

    expectError(await edit({ settings: { idp_entity_id: 'https://nowhere.example/idp' } }), 'E_1');
    expectError(await edit({ settings: { federation_cert: 'not a certificate' } }), 'E_1');
    expectError(await edit({ settings: { metadata_url: 'http://metadata.example.org/carsi.xml' } }), 'E_1');
    expectError(await edit({ settings: { refresh_minutes: -1 } }), 'E_1');
    expectError(await edit({ settings: { client_secret: 'x' } }), 'E_1');
    federation.serveMetadata('wrong-key');
    expectError(await edit({ settings: { refresh_minutes: 30 } }), 'E_1');
    federation.serveMetadata('good');

    const edited = edu.ok<{ name: string; kind: string; settings: Record<string, unknown> }>(
      await edit({ name: '北方示范大学(CARSI)', settings: { refresh_minutes: 30 } }),
    );
    expect(edited).toMatchObject({ name: '北方示范大学(CARSI)', kind: 'saml' });
    expect(edited.settings).toMatchObject({
      refresh_minutes: 30,
      metadata_url: federation.metadataUrl,
      idp_entity_id: federation.idp.entityId,
    });
    const again = await signInThroughIdp(code, person);
    expect(again.auth).toMatch(/^authorization=./);
    expect(await me(again.auth)).toBe(await me(first.auth));
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('action', '=', 'school.connector.settings')
      .execute();
    expect(audit).toContainEqual({
      action: 'school.connector.settings',
      detail: `saml ${code}: name, refresh_minutes`,
    });
  });
});

describe('lazy refresh by the aggregate’s own cacheDuration and validUntil', () => {
  test('xs:duration values are read (hours, days, minutes, seconds); other shapes are ignored', () => {
    expect(durationMs('PT6H')).toBe(6 * 3_600_000);
    expect(durationMs('P1DT30M')).toBe(86_400_000 + 30 * 60_000);
    expect(durationMs('PT90.5S')).toBe(90_000);
    for (const odd of [null, '', 'P', 'PT', 'P1Y', 'P1M', '6H', 'PT-1H', 'PT0S'])
      expect(durationMs(odd)).toBeUndefined();
  });

  test('a cacheDuration shorter than the interval brings the refresh forward, the signature checked again', async () => {
    federation.serveMetadata('short-cache');
    const { code } = await schoolWithSaml(samlSettings({ refresh_minutes: 60 }));
    const fetched = federation.metadataFetches();
    moveClock(60_000);
    await start(code);
    expect(federation.metadataFetches()).toBe(fetched);
    moveClock(2 * 60_000);
    // Due now: fetched again, and a copy signed by another key is not taken (the kept copy stays).
    federation.serveMetadata('wrong-key');
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched + 1);
  });

  test('a cacheDuration under a minute (PT1S) is read as a minute: no fetch at every sign-in', async () => {
    federation.serveMetadata('tiny-cache');
    const { code } = await schoolWithSaml(samlSettings({ refresh_minutes: 60 }));
    const fetched = federation.metadataFetches();
    moveClock(30_000);
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched);
    moveClock(61_000);
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched + 1);
  });

  test('a copy past its validUntil is fetched again at the next sign-in rather than refused until the interval', async () => {
    federation.serveMetadata('short-valid');
    const { code } = await schoolWithSaml(samlSettings({ refresh_minutes: 60 }));
    const fetched = federation.metadataFetches();
    federation.serveMetadata('good');
    moveClock(3 * 60_000);
    expect((await signInThroughIdp(code, student())).auth).toMatch(/^authorization=./);
    expect(federation.metadataFetches()).toBe(fetched + 1);
  });
});

describe('forged responses are refused', () => {
  let code: string;
  beforeAll(async () => {
    ({ code } = await schoolWithSaml());
  });

  /** A response to a fresh start, built by the identity provider with `fields` changed, then `edit`ed. */
  const forged = async (fields: ResponseFields, edit: (xml: string) => string = (xml) => xml) => {
    const started = await start(code);
    const signed = await federation.respond(started.requestId, student(), fields);
    const xml = edit(Buffer.from(signed, 'base64').toString('utf8'));
    return post(started, Buffer.from(xml, 'utf8').toString('base64'));
  };
  const expectRefused = (result: { landed: string; auth: string | undefined }) => {
    expect(result.auth).toBeUndefined();
    expect(result.landed).toBe(refused(code));
  };

  test('the untouched response signs in (the corpus below changes one thing each)', async () => {
    expect((await forged({})).auth).toMatch(/^authorization=./);
  });

  const assertionOf = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
  const evil = (assertion: string) =>
    assertion
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/pw8x2kq@beifang\.edu\.cn/, 'victim@beifang.edu.cn')
      .replace(/>student</, '>faculty<');

  test('signature wrapping: an unsigned evil assertion first, the signed one after it', async () => {
    expectRefused(
      await forged({}, (xml) => {
        const original = assertionOf(xml);
        return xml.replace(original, evil(original).replace(/ID="_a/, 'ID="_evil') + original);
      }),
    );
  });

  test('signature wrapping: the evil assertion in place, the signed one hidden in its Subject', async () => {
    expectRefused(
      await forged({}, (xml) => {
        const original = assertionOf(xml);
        const wrapped = evil(original).replace('<saml:Subject>', `<saml:Subject>${original}`);
        return xml.replace(original, wrapped);
      }),
    );
  });

  test('signature wrapping: the signed assertion moved into the Response’s Extensions, an evil one with its ID in place', async () => {
    expectRefused(
      await forged({}, (xml) => {
        const original = assertionOf(xml);
        return xml
          .replace(original, evil(original))
          .replace('</saml:Issuer>', `</saml:Issuer><samlp:Extensions>${original}</samlp:Extensions>`);
      }),
    );
  });

  test('the signature removed', async () => {
    expectRefused(await forged({}, (xml) => xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')));
  });

  test('a comment injected in the NameID', async () => {
    expectRefused(await forged({ nameIdXml: 'victim@beifang.edu.cn<!---->.attacker.example' }));
  });

  test('a value changed after signing', async () => {
    expectRefused(await forged({}, (xml) => xml.replace('>student<', '>faculty<')));
  });

  test('wrong audience', async () => {
    expectRefused(await forged({ audience: 'https://other-sp.example/shibboleth' }));
  });

  test('wrong recipient', async () => {
    expectRefused(await forged({ recipient: 'https://other-sp.example/Shibboleth.sso/SAML2/POST' }));
  });

  test('wrong destination', async () => {
    expectRefused(await forged({ destination: 'https://other-sp.example/Shibboleth.sso/SAML2/POST' }));
  });

  test('expired conditions', async () => {
    expectRefused(await forged({ notOnOrAfter: new Date(Date.now() - 10 * 60_000).toISOString() }));
  });

  test('an unsigned assertion inside a signed response', async () => {
    expectRefused(await forged({ signing: 'response' }));
  });

  test('signed with another institution’s key', async () => {
    expectRefused(await forged({ signing: 'other' }));
  });

  test('issued in the name of another institution of the federation', async () => {
    expectRefused(await forged({ issuer: federation.other.entityId }));
  });

  test('a response to a request this server never sent', async () => {
    const started = await start(code);
    const unsolicited = await federation.respond('_never-sent', student());
    expectRefused(await post(started, unsolicited));
  });

  test('a replayed assertion is refused, also under a fresh state, and a raced copy wins once', async () => {
    const started = await start(code);
    const signed = await federation.respond(started.requestId, student());
    expect((await post(started, signed)).auth).toMatch(/^authorization=./);
    expectRefused(await post(started, signed));
    const fresh = await start(code);
    expectRefused(await post({ ...fresh }, signed));
    const raced = await start(code);
    const once = await federation.respond(raced.requestId, student());
    const results = await Promise.all([1, 2, 3, 4].map(() => post(raced, once)));
    expect(results.filter((r) => r.auth !== undefined)).toHaveLength(1);
  });

  test('a response without the state cookie of the browser that started is refused as expired', async () => {
    const started = await start(code);
    const signed = await federation.respond(started.requestId, student());
    const answer = await post({ ...started, cookie: '' }, signed);
    expect(answer.auth).toBeUndefined();
    expect(answer.landed).toBe(`${server.url}/?school=${code}&error=expired`);
  });
});

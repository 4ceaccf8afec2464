/**
 * Signing in with the national smart education platform as it publishes its sign-in, through the
 * test kit's stand-in: the authorization request carries its non-standard `grant_type`, the token
 * request the AppKey as `client_secret`, user information is read by a separate call; a code is good
 * once and for 5 minutes. The preset names what the platform does not publish and asks for it.
 */
import { type EduMemberships, routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import { SMARTEDU_CODE_MS, type SmarteduPlatform, smarteduPlatform } from '@edupass/test-kit/smartedu-platform';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const { server, call } = useOauthTestServer();
const edu = eduSteps(server, call);
const APP = { appId: 'edupass-app-0001', appKey: 'smartedu-app-key-0123456789' };

let platform: SmarteduPlatform;
beforeAll(async () => {
  platform = await smarteduPlatform(APP);
});
afterAll(async () => {
  await platform?.close();
});

let codes = 0;
const operatorCall = async (method: string, path: string, body?: unknown) =>
  call(method, path, body, { token: await edu.operatorToken() });

const settings = () => ({
  preset: 'smartedu',
  client_id: APP.appId,
  client_secret: APP.appKey,
  authorization_endpoint: `${platform.url}/uias/oauth/authorize`,
  token_endpoint: `${platform.url}/uias/oauth/token`,
  userinfo_endpoint: `${platform.url}/uias/oauth/userInfo`,
});

const schoolOnPlatform = async () => {
  const schoolId = await edu.addSchool('国家平台实验学校');
  const code = `smartedu-${++codes}`;
  const added = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
    code,
    kind: 'oidc',
    name: '国家智慧教育平台',
    settings: settings(),
  });
  return { schoolId, code, connector: edu.ok<{ settings: Record<string, unknown> }>(added) };
};

/** Start at EduPass, sign in at the platform as `person`, and stop with the platform's answer. */
const atPlatform = async (code: string, person: Record<string, unknown>) => {
  const start = new URL(`/edu/school-sign-in/${code}/start`, server.url);
  start.searchParams.set('redirect', `${server.url}/account`);
  const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
  const authorizeUrl = new URL(redirectTarget(started));
  platform.next = person;
  const answered = await fetch(authorizeUrl, { redirect: 'manual' });
  return {
    authorizeUrl,
    callback: new URL(redirectTarget(answered)),
    cookie: cookieSet(started, 'edupass_school') ?? '',
  };
};

const backAtEduPass = async (callback: URL, cookie: string) => {
  const finished = await fetch(callback, { redirect: 'manual', headers: { accept: 'text/html', cookie } });
  return { landed: redirectTarget(finished), auth: cookieSet(finished, 'authorization') };
};

const teacher = (id: string) => ({ user_id: id, real_name: '李老师', identity: 'teacher' });

describe('the national smart education platform (smartedu preset)', () => {
  test('a teacher signs in: the published requests, then user information by a separate call', async () => {
    const { schoolId, code, connector } = await schoolOnPlatform();
    expect(connector.settings).toMatchObject({ scopes: ['userInfo'], asked_of_platform: ['userinfo_endpoint'] });
    const round = await atPlatform(code, teacher('sp-1001'));
    const asked = round.authorizeUrl.searchParams;
    expect(round.authorizeUrl.pathname).toBe('/uias/oauth/authorize');
    expect(
      Object.fromEntries(['grant_type', 'response_type', 'client_id', 'scope'].map((k) => [k, asked.get(k)])),
    ).toEqual({
      grant_type: 'authorization_code',
      response_type: 'code',
      client_id: APP.appId,
      scope: 'userInfo',
    });
    expect(asked.get('redirect_uri')).toBe(connector.settings.redirect_uri);
    const { landed, auth } = await backAtEduPass(round.callback, round.cookie);
    expect(landed).toBe(`${server.url}/account`);
    const token = platform.tokenRequests.at(-1);
    expect(token && Object.fromEntries(token)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: APP.appId,
      client_secret: APP.appKey,
      redirect_uri: connector.settings.redirect_uri,
    });
    const memberships = edu.ok<EduMemberships>(
      await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } }),
    );
    expect(memberships.schools).toEqual([expect.objectContaining({ id: schoolId, role: 'teacher' })]);
  });

  test('a code is good once and for 5 minutes', async () => {
    const { code } = await schoolOnPlatform();
    const late = await atPlatform(code, teacher('sp-1002'));
    platform.later(SMARTEDU_CODE_MS + 1000);
    try {
      const refused = await backAtEduPass(late.callback, late.cookie);
      expect(refused.auth).toBeUndefined();
      expect(platform.refused.at(-1)).toBe('invalid_grant');
    } finally {
      platform.later(-(SMARTEDU_CODE_MS + 1000));
    }
    const round = await atPlatform(code, teacher('sp-1002'));
    expect((await backAtEduPass(round.callback, round.cookie)).auth).toBeDefined();
    // The same code again, straight to the platform: it was spent.
    const again = await fetch(`${platform.url}/uias/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code: round.callback.searchParams.get('code') ?? '',
        grant_type: 'authorization_code',
        client_id: APP.appId,
        client_secret: APP.appKey,
        redirect_uri: platform.tokenRequests.at(-1)?.get('redirect_uri') ?? '',
      }),
    });
    expect(again.status).toBe(400);
  });

  test('the preset asks for what the platform does not publish', async () => {
    const schoolId = await edu.addSchool('国家平台实验学校');
    const { userinfo_endpoint: _, ...withoutUserinfo } = settings();
    const answer = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
      code: `smartedu-${++codes}`,
      kind: 'oidc',
      name: '国家智慧教育平台',
      settings: withoutUserinfo,
    });
    expectError(answer, 'E_1');
    expect((answer.body as { error_message: string }).error_message).toMatch(/userinfo_endpoint .*ask/);
  });

  test('a regional education cloud, of the same shape: its three addresses are asked for, its guesses named', async () => {
    const schoolId = await edu.addSchool('区教育云实验学校');
    const cloud = { preset: 'edu-cloud', client_id: 'cloud-app', client_secret: 'cloud-secret-0123456789' };
    const refused = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
      code: `edu-cloud-${++codes}`,
      kind: 'oidc',
      name: '区教育云',
      settings: cloud,
    });
    expectError(refused, 'E_1');
    expect((refused.body as { error_message: string }).error_message).toMatch(/authorization_endpoint .*ask/);
    const added = await operatorCall('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), {
      code: `edu-cloud-${++codes}`,
      kind: 'oidc',
      name: '区教育云',
      settings: { ...settings(), ...cloud },
    });
    const shown = edu.ok<{ settings: { asked_of_platform: string[]; assumed: string[]; token_auth: string } }>(added);
    expect(shown.settings.asked_of_platform).toEqual(['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint']);
    expect(shown.settings.token_auth).toBe('client_secret_post');
    expect(shown.settings.assumed.join(' ')).toMatch(/scope.*user information/);
  });
});

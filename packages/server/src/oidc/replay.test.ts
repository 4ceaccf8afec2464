/**
 * A replayed authorization code or refresh token revokes its grant, also when the replays arrive
 * together (20 at once): one request may win, and afterwards every token of the grant is dead.
 * Database-sensitive: run on SQLite and PostgreSQL.
 */
import { signUpAgreed } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover } from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://courses.example.com/callback';
const REPLAYS = 20;

let app: { id: string; secret: string };

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
});

const tokenRequest = (form: Record<string, string>) =>
  fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as Record<string, string> }));

const signedIn = async () => {
  const user = await signUpAgreed(server);
  const browser = cookieBrowser();
  const config = await discover(server, app.id, app.secret);
  const { landed, checks } = await authorize(config, browser, CALLBACK);
  const callback = await complete(server, browser, landed, user.token, CALLBACK);
  return { config, code: String(new URL(callback).searchParams.get('code')), verifier: checks.pkceCodeVerifier };
};

const inactive = async (config: oidc.Configuration, token: string) =>
  (await oidc.tokenIntrospection(config, token)).active === false;

describe('replays at the same moment', () => {
  it(`of an authorization code (${REPLAYS} at once) revoke the grant`, async () => {
    const { config, code, verifier } = await signedIn();
    const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    const answers = await Promise.all(Array.from({ length: REPLAYS }, () => tokenRequest(form)));
    const won = answers.filter((answer) => answer.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    for (const { body } of won) {
      expect(await inactive(config, body.access_token ?? '')).toBe(true);
      expect(await inactive(config, body.refresh_token ?? '')).toBe(true);
    }
  });

  it(`of a refresh token (${REPLAYS} at once) revoke the grant`, async () => {
    const { config, code, verifier } = await signedIn();
    const first = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    expect(first.status).toBe(200);
    const refresh = String(first.body.refresh_token);
    const answers = await Promise.all(
      Array.from({ length: REPLAYS }, () => tokenRequest({ grant_type: 'refresh_token', refresh_token: refresh })),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(await inactive(config, String(first.body.access_token))).toBe(true);
    for (const { body } of won) {
      expect(await inactive(config, body.access_token ?? '')).toBe(true);
      expect(await inactive(config, body.refresh_token ?? '')).toBe(true);
    }
  });
});

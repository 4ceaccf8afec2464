/**
 * Applications' tokens end with the EduPass session they stand on (openid-client as the
 * application): after a sign-out, a password change, a block, an operator's "end sessions" or the
 * account's deletion, the application's refresh token is refused and introspection says its access
 * token is inactive. Ending another session of the same account leaves them be. ID tokens carry `sid`.
 */
import { A, signIn, signInOperator, signUpAgreed } from '@edupass/test-kit/accounts';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { appTokensFor } from '@edupass/test-kit/oidc-flow';
import { sessionEndings } from '@edupass/test-kit/session-endings';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer();
const CALLBACK = 'https://courses.example.com/callback';

let app: { id: string; secret: string };
let operator: string;

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
  operator = (await signInOperator(server)).token;
});

/** A new account signed in to the application through its EduPass session: the application's tokens. */
const signedInToApp = async () => {
  const user = await signUpAgreed(server);
  return { user, ...(await appTokensFor(server, app, CALLBACK, user.token)) };
};

const introspected = (config: oidc.Configuration, token: string) => oidc.tokenIntrospection(config, token);

const expectEnded = async (config: oidc.Configuration, tokens: oidc.TokenEndpointResponse) => {
  await expect(oidc.refreshTokenGrant(config, String(tokens.refresh_token))).rejects.toThrow();
  expect((await introspected(config, tokens.access_token)).active).toBe(false);
  expect((await introspected(config, String(tokens.refresh_token))).active).toBe(false);
};

const EVENTS = sessionEndings(call, () => operator);

describe("an application's tokens and the EduPass session", () => {
  it('ID tokens carry the session id (sid); the tokens work while the session lives', async () => {
    const { config, tokens } = await signedInToApp();
    expect(tokens.claims()?.sid).toBeTypeOf('string');
    expect((await introspected(config, tokens.access_token)).active).toBe(true);
    const refreshed = await oidc.refreshTokenGrant(config, String(tokens.refresh_token));
    expect(refreshed.claims()?.sid).toBe(tokens.claims()?.sid);
  });

  it.each(EVENTS)('after %s, refresh fails and introspection says inactive', async (_name, event) => {
    const { user, config, tokens } = await signedInToApp();
    expect((await event(user)).status).toBeLessThan(300);
    await expectEnded(config, tokens);
  });

  it("ending another of the account's sessions leaves the application's tokens working", async () => {
    const { user, config, tokens } = await signedInToApp();
    const other = await signIn(server, user.phone);
    expect((await call('POST', `${A}/logout`, {}, { token: other.access.token })).status).toBe(204);
    expect((await introspected(config, tokens.access_token)).active).toBe(true);
    await expect(oidc.refreshTokenGrant(config, String(tokens.refresh_token))).resolves.toBeDefined();
  });
});

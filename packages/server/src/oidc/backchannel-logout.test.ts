/**
 * OpenID Connect Back-Channel Logout 1.0, with openid-client as the applications and jose checking
 * the logout tokens against the provider's JWKS: when the EduPass session an application's sign-in
 * stood on ends, an application that registered a back-channel URI is posted one logout token naming
 * the `sid` its ID token carried; an application without one is told nothing (its tokens still end).
 * A receiver that is down gets the token once it is back.
 */
import { A, type Account, expectError, signInOperator, signUpAgreed } from '@edupass/test-kit/accounts';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { appTokensFor, discover, signOutThroughApp } from '@edupass/test-kit/oidc-flow';
import { sessionEndings } from '@edupass/test-kit/session-endings';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const CALLBACK = 'https://courses.example.com/callback';
const OTHER_CALLBACK = 'https://library.example.com/callback';

let receiver: WebhookReceiver;
let listening: { id: string; secret: string };
let silent: { id: string; secret: string };
let operator: string;

beforeAll(async () => {
  adoptOwnUrl();
  receiver = await startWebhookReceiver();
  operator = (await signInOperator(server)).token;
  const made = await registerApp(
    server,
    { name: 'Courses', redirect_uris: [CALLBACK], backchannel_logout_uri: receiver.url },
    operator,
  );
  listening = { id: made.application.client_id, secret: String(made.client_secret) };
  expect(made.application.backchannel_logout_uri).toBe(receiver.url);
  const other = await registerApp(server, { name: 'Library', redirect_uris: [OTHER_CALLBACK] }, operator);
  silent = { id: other.application.client_id, secret: String(other.client_secret) };
});
afterAll(() => receiver?.close());

const signInTo = (app: { id: string; secret: string }, callback: string, user: Account) =>
  appTokensFor(server, app, callback, user.token);

/** The logout tokens posted so far, verified as an application verifies them. */
const logoutTokens = async (config: oidc.Configuration) => {
  const metadata = config.serverMetadata();
  const keys = createRemoteJWKSet(new URL(String(metadata.jwks_uri)));
  return Promise.all(
    receiver.received.map(async ({ headers, body }) => {
      expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
      const token = new URLSearchParams(body).get('logout_token') ?? '';
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: metadata.issuer,
        audience: listening.id,
        typ: 'logout+jwt',
      });
      expect(protectedHeader.alg).toBe('RS256');
      expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
      expect(payload.nonce).toBeUndefined();
      expect(payload.jti).toBeTypeOf('string');
      return payload;
    }),
  );
};

const EVENTS = sessionEndings(call, () => operator);

const pending = async () =>
  (await server.app.ctx.db.selectFrom('backchannel_logouts').select('attempts').execute()).map((row) => row.attempts);

describe('back-channel logout', () => {
  it('is offered in discovery, with sid', async () => {
    const config = await discover(server, listening.id, listening.secret);
    expect(config.serverMetadata()).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it.each(EVENTS)(
    'after %s, the listening application gets one logout token for the sign-in; the other none',
    async (_name, event) => {
      receiver.received.length = 0;
      const user = await signUpAgreed(server);
      const courses = await signInTo(listening, CALLBACK, user);
      const library = await signInTo(silent, OTHER_CALLBACK, user);
      expect((await event(user)).status).toBeLessThan(300);
      await expect.poll(() => receiver.received.length).toBe(1);
      const [payload] = await logoutTokens(courses.config);
      expect(payload?.sub).toBe(String(user.userId));
      expect(payload?.sid).toBe(courses.tokens.claims()?.sid);
      // The silent application's tokens ended as well; it was posted nothing.
      await expect(oidc.refreshTokenGrant(library.config, String(library.tokens.refresh_token))).rejects.toThrow();
      // Nothing else is waiting to be posted (logouts are written with the session's end). The row of
      // the one posted goes once the receiver has answered, which it may not have yet: waited for.
      await expect.poll(pending).toEqual([]);
      expect(receiver.received.length).toBe(1);
    },
  );

  it('after signing out through the application (RP-initiated logout), one logout token, not two', async () => {
    receiver.received.length = 0;
    const user = await signUpAgreed(server);
    const courses = await signInTo(listening, CALLBACK, user);
    await signOutThroughApp(courses.config, courses.browser, String(courses.tokens.id_token));
    await expect.poll(() => receiver.received.length).toBe(1);
    await expect.poll(pending).toEqual([]);
    expect(receiver.received.length).toBe(1);
    const [payload] = await logoutTokens(courses.config);
    expect(payload?.sid).toBe(courses.tokens.claims()?.sid);
  });

  it('reaches an application that was down, once it is back', async () => {
    receiver.received.length = 0;
    const user = await signUpAgreed(server);
    const courses = await signInTo(listening, CALLBACK, user);
    await receiver.goDown();
    const { ctx } = server.app;
    try {
      expect((await call('POST', `${A}/logout`, {}, { token: user.token })).status).toBe(204);
      await expect.poll(pending).toEqual([1]);
    } finally {
      await receiver.comeBack();
    }
    // The retry is due after the back-off (5 s ± 20 %): move the clock past it.
    const realNow = ctx.now;
    ctx.now = () => realNow() + 10_000;
    try {
      await expect.poll(() => receiver.received.length).toBe(1);
      await expect.poll(pending).toEqual([]);
    } finally {
      ctx.now = realNow;
    }
    const [payload] = await logoutTokens(courses.config);
    expect(payload?.sid).toBe(courses.tokens.claims()?.sid);
  });

  it('refuses a back-channel URI on a private address where private targets are not allowed', async () => {
    const { webhooks } = server.app.ctx.config;
    server.app.ctx.config.webhooks = { ...webhooks, allowPrivate: false };
    try {
      const answer = await call(
        'POST',
        '/admin/applications',
        {
          name: 'Inside',
          redirect_uris: [CALLBACK],
          first_party: true,
          confidential: true,
          backchannel_logout_uri: 'http://127.0.0.1:9/logout',
        },
        { token: operator },
      );
      expectError(answer, 'E_1');
    } finally {
      server.app.ctx.config.webhooks = webhooks;
    }
  });
});

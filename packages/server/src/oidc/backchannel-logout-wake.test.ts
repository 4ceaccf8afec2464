/**
 * The provider's own back-channel logouts (an application's RP-initiated sign-out) are queued
 * outside a transaction, so no commit wakes the worker: the provider wakes it itself. With the
 * worker's poll an hour apart here, the logout token still reaches the application at once.
 */
import { signInOperator, signUpAgreed } from '@edupass/test-kit/accounts';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { appTokensFor, signOutThroughApp } from '@edupass/test-kit/oidc-flow';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer({
  webhooks: { allowPrivate: true, pollMs: 3_600_000, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const CALLBACK = 'https://courses.example.com/callback';

let receiver: WebhookReceiver;
beforeAll(async () => {
  adoptOwnUrl();
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

it('an application signing its user out is posted the logout token without waiting for the poll', async () => {
  const operator = (await signInOperator(server)).token;
  const made = await registerApp(
    server,
    { name: 'Courses', redirect_uris: [CALLBACK], backchannel_logout_uri: receiver.url },
    operator,
  );
  const user = await signUpAgreed(server);
  const app = { id: made.application.client_id, secret: String(made.client_secret) };
  const { config, tokens, browser } = await appTokensFor(server, app, CALLBACK, user.token);
  await signOutThroughApp(config, browser, String(tokens.id_token));
  // Far inside the hour the next poll would take: only a wake delivers it this soon.
  await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
  const token = new URLSearchParams(receiver.received[0]?.body ?? '').get('logout_token') ?? '';
  expect(decodeJwt(token).sid).toBe(tokens.claims()?.sid);
});

/**
 * A product that discloses what it receives to others (`discloses_to_others`, set by the operator
 * through the admin API) gets a child's personal information only after a guardian consented by the
 * stronger method — after the real-name adult check (REALNAME_PROVIDER, against a vendor peer speaking
 * Tencent Cloud's protocol). A consent by SMS code alone is enough for an ordinary third party, not for
 * it: it then receives the protective claims only, in the ID token and at userinfo, through the real
 * provider with openid-client.
 */
import { MINOR_CLAIMS, routes } from '@edupass/protocol';
import { type Account, signAgreementsInEffect } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { signInAtApp } from '@edupass/test-kit/oidc-flow';
import { type RealnamePeer, tencentRealnamePeer } from '@edupass/test-kit/realname-peers';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_CLAIMS } from './accounts.ts';

const { server, call, adoptOwnUrl } = useIssuerServer();
const edu = eduSteps(server, call);
const PLAIN_CALLBACK = 'http://127.0.0.1:7211/callback';
const SHARING_CALLBACK = 'http://127.0.0.1:7212/callback';
const EVERY_SCOPE = Object.keys(SCOPE_CLAIMS).join(' ');
const PROTECTIVE = new Set(['sub', ...MINOR_CLAIMS, 'managed_by_school']);
/** A guardian who passes the check: the vendor's register knows this name and ID number. */
const GUARDIAN = { name: '欧阳明远', id: '110105198503121234' };

let plain: { id: string; secret: string };
let sharing: { id: string; secret: string };
let peer: RealnamePeer;

/** The claims `app` receives of the child, in the ID token and at userinfo. */
const received = async (app: { id: string; secret: string }, callback: string, child: Account) => {
  const signedIn = await signInAtApp(server, app, callback, child.token, EVERY_SCOPE);
  const info = await oidc.fetchUserInfo(signedIn.config, signedIn.tokens.access_token, String(child.userId));
  return { idToken: signedIn.idToken as Record<string, unknown>, info };
};

/** A child under 14 whose guardian consents from the child's link (after an adult check when `check`). */
const consentedChild = async (check: boolean) => {
  const child = await edu.signUpAged(10);
  await signAgreementsInEffect(server, child.token);
  const guardian = await edu.signUpAged(40);
  if (check) {
    edu.ok(
      await call(
        'POST',
        routes.adultCheck.path,
        { name: GUARDIAN.name, id_number: GUARDIAN.id },
        { token: guardian.token },
      ),
    );
  }
  const { link } = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  );
  // The consent page names the product that discloses, and only it, before the guardian decides.
  const shown = edu.ok<{ disclosing_apps: string[] }>(
    await call('POST', routes.consentRequest.path, { link }, { token: guardian.token }),
  );
  expect(shown.disclosing_apps).toContain('Study Ads');
  expect(shown.disclosing_apps).not.toContain('Quiz Corner');
  edu.ok(
    await call(
      'POST',
      routes.decideConsent.path,
      { link, decision: 'consent', relation: 'father' },
      { token: guardian.token },
    ),
    204,
  );
  return child;
};

beforeAll(async () => {
  adoptOwnUrl();
  peer = await tencentRealnamePeer('AKIDrealname', 'realname-secret');
  peer.register.set(GUARDIAN.id, GUARDIAN.name);
  const operator = await edu.operatorToken();
  const first = await registerApp(
    server,
    { name: 'Quiz Corner', redirect_uris: [PLAIN_CALLBACK], first_party: false },
    operator,
  );
  plain = { id: first.application.client_id, secret: String(first.client_secret) };
  const second = await registerApp(
    server,
    { name: 'Study Ads', redirect_uris: [SHARING_CALLBACK], first_party: false },
    operator,
  );
  sharing = { id: second.application.client_id, secret: String(second.client_secret) };
  // The operator marks it through the admin API; the answer says so.
  const changed = edu.ok<{ discloses_to_others: boolean }>(
    await call(
      'POST',
      routes.updateApplication.path.replace(':client_id', sharing.id),
      { discloses_to_others: true },
      { token: operator },
    ),
  );
  expect(changed.discloses_to_others).toBe(true);
  expect(first.application.discloses_to_others).toBe(false);
});
afterAll(async () => {
  server.app.ctx.config.realname = undefined;
  await peer?.close();
});

describe('a product that discloses to others', () => {
  it('gets only the protective claims of a child whose guardian consented by SMS code alone', async () => {
    server.app.ctx.config.realname = undefined;
    const child = await consentedChild(false);
    const ordinary = await received(plain, PLAIN_CALLBACK, child);
    expect(ordinary.info.phone_number).toBeDefined();
    const shared = await received(sharing, SHARING_CALLBACK, child);
    for (const claims of [shared.idToken, shared.info]) {
      const personal = Object.keys(claims).filter((key) =>
        Object.values(SCOPE_CLAIMS)
          .flat()
          .includes(key as never),
      );
      expect(personal.filter((claim) => !PROTECTIVE.has(claim))).toEqual([]);
      expect(JSON.stringify(claims)).not.toContain(String(ordinary.info.phone_number));
    }
    expect(shared.info.sub).toBe(ordinary.info.sub);
  });

  it('gets what an ordinary third party gets once the guardian consented after the real-name check', async () => {
    server.app.ctx.config.realname = {
      provider: 'tencent',
      accessKeyId: 'AKIDrealname',
      accessKeySecret: 'realname-secret',
      endpoint: peer.url,
      region: 'ap-guangzhou',
      timeoutMs: 5_000,
    };
    const child = await consentedChild(true);
    const ordinary = await received(plain, PLAIN_CALLBACK, child);
    const shared = await received(sharing, SHARING_CALLBACK, child);
    expect(shared.info).toEqual(ordinary.info);
    expect(shared.info.phone_number).toBeDefined();
  });
});

/**
 * Minor mode carried to products, read by a real relying party (openid-client): the `minor` scope's
 * claims in the ID token and userinfo, the operator's defaults by age (the 2024 guide's unless
 * changed), a linked guardian's stricter limits in the next token with `minor.settings.changed`, and
 * the refusal of a looser one.
 */
import { type GuardianCode, MINOR_CLAIMS, type MinorMode, routes } from '@edupass/protocol';
import { type Account, expectError, signAgreementsInEffect } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { signInAtApp as signInAtAppAs } from '@edupass/test-kit/oidc-flow';
import { startWebhookReceiver, verifiedEvents } from '@edupass/test-kit/webhook-receiver';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const edu = eduSteps(server, call);
const { signUpAged } = edu;
const CALLBACK = 'http://127.0.0.1:7103/callback';

const ownMinor = async (account: Account) =>
  edu.ok<MinorMode>(await call('GET', routes.ownMinorMode.path, undefined, { token: account.token }));
const linkedGuardian = async (child: Account, years = 38) => {
  const guardian = await signUpAged(years);
  const { code } = edu.ok<GuardianCode>(await call('POST', routes.openGuardianCode.path, {}, { token: child.token }));
  edu.ok(await call('POST', routes.linkChild.path, { code, relation: 'mother' }, { token: guardian.token }));
  return guardian;
};
const setLimits = (guardian: Account, child: Account, body: Record<string, unknown>) =>
  call<MinorMode>('PUT', pathOf(routes.setChildMinorMode.path, { id: child.userId }), body, { token: guardian.token });

describe('the minor scope', () => {
  let app: { id: string; secret: string };
  beforeAll(async () => {
    adoptOwnUrl();
    const registered = await registerApp(
      server,
      { name: 'Games', redirect_uris: [CALLBACK] },
      await edu.operatorToken(),
    );
    app = { id: registered.application.client_id, secret: String(registered.client_secret) };
  });

  const signInAtApp = async (token: string, scope = 'openid minor') => {
    await signAgreementsInEffect(server, token);
    const { config, tokens, idToken } = await signInAtAppAs(server, app, CALLBACK, token, scope);
    return { idToken, userinfo: await oidc.fetchUserInfo(config, tokens.access_token, String(idToken.sub)) };
  };

  it('gives the 2024 guide’s limits by age in the ID token and userinfo, and none to an adult', async () => {
    const expected: [number, string, number | null][] = [
      [6, 'under_8', 40],
      [10, '8_13', 60],
      [15, '14_15', 60],
      [17, '16_17', 120],
      [30, 'adult', null],
    ];
    for (const [years, band, minutes] of expected) {
      const person = await signUpAged(years);
      const { idToken, userinfo } = await signInAtApp(person.token);
      const minor = minutes !== null;
      const claims = {
        age_band: band,
        minor_mode: minor,
        daily_limit_minutes: minutes,
        curfew: minor ? '22:00-06:00' : null,
        guardian_linked: false,
        consent: years < 14 ? 'pending' : null,
      };
      for (const got of [idToken, userinfo]) {
        expect(Object.fromEntries(MINOR_CLAIMS.map((name) => [name, got[name]]))).toEqual(claims);
      }
      expect(await ownMinor(person)).toEqual(claims);
    }
  });

  it('says nothing of minor mode without the scope', async () => {
    const child = await signUpAged(9);
    const { idToken, userinfo } = await signInAtApp(child.token, 'openid profile');
    for (const claims of [idToken, userinfo]) for (const name of MINOR_CLAIMS) expect(claims).not.toHaveProperty(name);
  });

  it('takes the operator’s configured defaults', async () => {
    const config = server.app.ctx.config;
    const before = { minutes: config.eduMinorDailyMinutes, curfew: config.eduMinorCurfew };
    config.eduMinorDailyMinutes = { ...before.minutes, '8_15': 45 };
    config.eduMinorCurfew = '21:30-07:00';
    try {
      expect(await ownMinor(await signUpAged(12))).toMatchObject({ daily_limit_minutes: 45, curfew: '21:30-07:00' });
    } finally {
      config.eduMinorDailyMinutes = before.minutes;
      config.eduMinorCurfew = before.curfew;
    }
  });

  it('a guardian sets 30 minutes: the next token carries 30 and products hear minor.settings.changed', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await edu.webhookEndpoint(receiver.url, ['minor.settings.changed']);
      const child = await signUpAged(10);
      const guardian = await linkedGuardian(child);
      expect((await signInAtApp(child.token)).idToken).toMatchObject({
        daily_limit_minutes: 60,
        guardian_linked: true,
      });
      const set = edu.ok<MinorMode>(
        await setLimits(guardian, child, { daily_limit_minutes: 30, curfew: '21:00-07:00' }),
      );
      expect(set).toMatchObject({ daily_limit_minutes: 30, curfew: '21:00-07:00' });
      expect((await signInAtApp(child.token)).idToken).toMatchObject({
        daily_limit_minutes: 30,
        curfew: '21:00-07:00',
      });

      const events = await verifiedEvents(receiver, endpoint.secret, 2);
      // The link first (guardian_linked became true), then the new limit.
      expect(events.map((e) => [e.type, e.data.user_id, e.data.guardian_linked, e.data.daily_limit_minutes])).toEqual([
        ['minor.settings.changed', child.userId, true, 60],
        ['minor.settings.changed', child.userId, true, 30],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('a guardian may only make the limits stricter; another adult may not touch them', async () => {
    const child = await signUpAged(16);
    const guardian = await linkedGuardian(child);
    expectError(await setLimits(guardian, child, { daily_limit_minutes: 121 }), 'E_1');
    expectError(await setLimits(guardian, child, { curfew: '23:00-06:00' }), 'E_1');
    expectError(await setLimits(guardian, child, { curfew: '22:00-05:00' }), 'E_1');
    expectError(await setLimits(guardian, child, { curfew: '25:00-06:00' }), 'E_1');
    expectError(await setLimits(await signUpAged(45), child, { daily_limit_minutes: 10 }), 'E_2');
    edu.ok(await setLimits(guardian, child, { daily_limit_minutes: 90 }));
    // Absent fields go back to the operator's defaults.
    expect(edu.ok<MinorMode>(await setLimits(guardian, child, {}))).toMatchObject({
      daily_limit_minutes: 120,
      curfew: '22:00-06:00',
    });
  });
});

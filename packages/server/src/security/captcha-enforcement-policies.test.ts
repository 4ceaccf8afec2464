import { expectError, nextPhone, PID, signInOperator } from '@edupass/test-kit/accounts';
import { PEER_KEYS, startVendorPeers, type VendorPeers } from '@edupass/test-kit/captcha-vendor-peers';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { useCaptchaServer, usePolicy } from './captcha-enforcement.test-setup.ts';

const { server, call, ACTION_NAMES, prepare, defaultTicket, expectOk } = useCaptchaServer();

describe('policy never', () => {
  it.each(ACTION_NAMES)('%s: passes without a ticket (login/security still takes one)', async (name) => {
    const prepared = await prepare(name, 'never');
    if (name === 'password login/security') {
      expectError(await prepared.act(), 'GCAP_1');
      expectOk(await prepared.act(await defaultTicket(prepared.scene, prepared.identity)), prepared);
    } else {
      expectOk(await prepared.act(), prepared);
    }
  });

  it('a presented ticket is still checked: made up, or used, is GCAP_1', async () => {
    const prepared = await prepare('register code', 'never');
    expectError(await prepared.act('made-up-ticket'), 'GCAP_1');
    const ticket = await defaultTicket(prepared.scene, prepared.identity);
    expectOk(await prepared.act(ticket), prepared);
    expectError(await prepared.act(ticket), 'GCAP_1');
  });
});

describe('policy always', () => {
  it.each(ACTION_NAMES)(
    '%s: refused without a ticket, with a made-up or a DEFAULT one; passes once with a solved one',
    async (name) => {
      const prepared = await prepare(name, 'always');
      // Obtained while no challenge was due: it proves no human, so it cannot stand in for one.
      await usePolicy(server, 'never');
      const stale = await defaultTicket(prepared.scene, prepared.identity);
      await usePolicy(server, 'always');
      expectError(await prepared.act(), 'GCAP_1');
      expectError(await prepared.act('made-up-ticket'), 'GCAP_1');
      expectError(await prepared.act(stale), 'GCAP_1');
      const solved = await solveSlideTicket(server, prepared.scene, prepared.identity);
      expectOk(await prepared.act(solved), prepared);
      // Used: replayed on the same request, or (the oauth_ticket being spent now) on a fresh one.
      const again = name === 'third-party account creation' ? await prepare(name, 'always') : prepared;
      expectError(await again.act(solved), 'GCAP_1');
    },
  );

  it('a ticket solved for another scene or identity is refused', async () => {
    const prepared = await prepare('register code', 'always');
    expectError(await prepared.act(await solveSlideTicket(server, 'login', prepared.identity)), 'GCAP_1');
    expectError(await prepared.act(await solveSlideTicket(server, 'register', nextPhone())), 'GCAP_1');
  });

  it('one solved ticket spent by 10 parallel code sends passes exactly one', async () => {
    const prepared = await prepare('register code', 'always');
    const ticket = await solveSlideTicket(server, prepared.scene, prepared.identity);
    const answers = await Promise.all(Array.from({ length: 10 }, () => prepared.act(ticket)));
    expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 204)) expectError(answer, 'GCAP_1');
  });

  it('one solved ticket spent by 10 parallel sign-ins signs in exactly once', async () => {
    const prepared = await prepare('password login', 'always');
    const ticket = await solveSlideTicket(server, prepared.scene, prepared.identity);
    const answers = await Promise.all(Array.from({ length: 10 }, () => prepared.act(ticket)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expectError(answer, 'GCAP_1');
  });

  it('the rule hands no ticket: SLIDE to clients that run it, a clear refusal to others', async () => {
    await usePolicy(server, 'always');
    const modern = await call('POST', '/captcha/rule/v3', {
      identity: nextPhone(),
      scene: 'login',
      capabilities: ['SLIDE'],
    });
    expect(modern.body).toEqual({ rule: 'SLIDE', appid: '', ticket: '' });
    for (const path of ['/captcha/rule/v3', '/tiger/captcha/graph/rule']) {
      const older = await call('POST', path, { identity: nextPhone(), scene: 'login', pid: PID, timestamp: 1 });
      expectError(older, '10017002');
      expect((older.body as { error_message: string }).error_message).toMatch(/CAPTCHA_FALLBACK_RULE/);
    }
  });

  it('logs each refusal as a security event, the identity hashed', async () => {
    const prepared = await prepare('register code', 'always');
    const warn = vi.spyOn(server.app.ctx.logger, 'warn');
    try {
      await prepared.act();
      await prepared.act('made-up-ticket');
      const events = warn.mock.calls.map(([line]) => (line as { security?: Record<string, unknown> }).security);
      expect(events).toContainEqual(
        expect.objectContaining({
          event: 'captcha_required',
          ip: '127.0.0.1',
          reason: expect.stringMatching(/^register: policy always/),
        }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({ event: 'captcha_failed', reason: 'register: ticket unknown, used or expired' }),
      );
      expect(JSON.stringify(events)).not.toContain(prepared.identity);
      const logged = events.filter((e) => e !== undefined);
      expect(logged.map((e) => e.identity)).toEqual(logged.map(() => expect.stringMatching(/^[\w-]{16}$/)));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('policy risk, first attempts', () => {
  it.each(ACTION_NAMES.filter((n) => n !== 'password login/security'))(
    '%s: an ordinary first attempt passes without a ticket',
    async (name) => {
      const prepared = await prepare(name, 'risk');
      expectOk(await prepared.act(), prepared);
    },
  );
});

describe('a client without SLIDE under always, with a vendor configured', () => {
  let peers: VendorPeers;
  let vendorServer: TestServer;
  beforeAll(async () => {
    peers = await startVendorPeers();
    vendorServer = await startTestServer({
      captcha: peers.captchaConfig({ fallbackRule: 'GEETEST', policies: { '*:*': 'always' } }),
    });
  });
  afterAll(async () => {
    await vendorServer?.close();
    await peers?.close();
  });

  it("gets the vendor's rule and appid, never a ticket", async () => {
    const answer = await client(vendorServer.url)('POST', '/captcha/rule/v3', {
      identity: nextPhone(),
      scene: 'register',
    });
    expect(answer.body).toEqual({ rule: 'GEETEST', appid: PEER_KEYS.geetest.id, ticket: '' });
  });
});

describe('the console', () => {
  it('shows the risk thresholds in effect, read-only', async () => {
    await usePolicy(server, 'never');
    const { token } = await signInOperator(server);
    const answer = await call<{ risk: Record<string, unknown> }>('GET', '/admin/captcha', undefined, { token });
    expect(answer.status).toBe(200);
    const c = server.config.captcha;
    expect(answer.body.risk).toEqual({
      windowSeconds: c.riskWindowSeconds,
      identityFailures: c.riskFailures,
      loginAttempts: 3,
      ipFailures: 120,
      ipLoginFailures: 120,
      ipSends: 120,
      ruleRequests: 30,
      fallbackRule: 'NONE',
    });
  });
});

/** A server of its own for each risk story: counts by IP would spill over from the others. */

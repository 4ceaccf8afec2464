/**
 * Captcha decided by the server: every guarded action (each code send, both password sign-ins, a
 * third-party account of the identity alone) under each policy, with no ticket, a made-up ticket, a
 * DEFAULT ticket, a solved one and a used one; one ticket spent by parallel requests; the rule service
 * with and without SLIDE support; and the `risk` thresholds (a classroom behind one address is not
 * challenged, repeated failures on one account and password spraying from one address are).
 */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import {
  expectError,
  expectSignedIn,
  nextEmail,
  nextPhone,
  PASSWORD,
  PID,
  signInOperator,
  signUp,
  signUpByEmail,
} from '@edupass/test-kit/accounts';
import { PEER_KEYS, startVendorPeers, type VendorPeers } from '@edupass/test-kit/captcha-vendor-peers';
import { captchaWith, startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { type Answer, client } from '@edupass/test-kit/http-client';
import { providerReturn, startOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { solveSlideTicket } from '@edupass/test-kit/slide-tickets';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CaptchaPolicy } from '../captcha-config.ts';
import { setCaptchaPolicy } from '../services/captcha/policy.ts';

const TICKET = 'X-Captcha-Ticket';

let server: TestServer;
let call: ReturnType<typeof client>;
beforeAll(async () => {
  server = await startOauthTestServer();
  call = client(server.url);
});
afterAll(() => server?.close());

/** The operator's policy for every product and scene, as the console sets it. */
const usePolicy = (target: TestServer, policy: CaptchaPolicy) => setCaptchaPolicy(target.app.ctx, '*', '*', policy);

const withTicket = (ticket?: string) => (ticket === undefined ? {} : { headers: { [TICKET]: ticket } });

let oauthSeq = 0;
/** An oauth_ticket of a fresh WeChat identity nobody has signed in with. */
const oauthTicket = async () => {
  const back = await providerReturn(server, 'wechat', `测试${Date.now().toString(36).slice(-4)}${++oauthSeq}`);
  const answer = await call<{ oauth_ticket: string }>(
    'POST',
    `${A}/oauth/wechat`,
    { code: back.code, state: back.state, pid: PID },
    { headers: { cookie: back.cookie } },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.oauth_ticket;
};

interface Prepared {
  /** The ticket binding the web client asks the rule for. */
  scene: string;
  identity: string;
  /** The action, once with the given ticket (or none). */
  act(ticket?: string): Promise<Answer>;
  /** What it answers when allowed. */
  ok: 200 | 204;
}

/** Every guarded action, each prepared fresh (its account, phone or oauth_ticket) under policy `never`. */
const ACTIONS: Record<string, () => Promise<Prepared>> = {
  async 'register code'() {
    const phone = nextPhone();
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'register',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/register/phone/with-agreement`, body, withTicket(t)),
    };
  },
  async 'login code'() {
    const { phone } = await signUp(server);
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'login',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/login/post-process`, body, withTicket(t)),
    };
  },
  async 'silent login code'() {
    const phone = nextPhone();
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'silence',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/login/silence`, body, withTicket(t)),
    };
  },
  async 'reset code'() {
    const { phone } = await signUp(server);
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'reset',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/password/reset`, body, withTicket(t)),
    };
  },
  async 'common code'() {
    const phone = nextPhone();
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'common',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/common`, body, withTicket(t)),
    };
  },
  async 'voice code'() {
    const phone = nextPhone();
    const body = { phone_number: phone, type: 'register', pid: PID };
    return {
      scene: 'register',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/voice/captcha/send`, body, withTicket(t)),
    };
  },
  async 'e-mail code'() {
    const email = nextEmail();
    const body = { email, pid: PID };
    return {
      scene: 'email_register',
      identity: email,
      ok: 204,
      act: (t) => call('POST', `${A}/email/captcha/send`, body, withTicket(t)),
    };
  },
  async 'bind-phone code'() {
    const { token } = await signUpByEmail(server);
    const phone = nextPhone();
    const body = { phone_number: phone, pid: PID };
    return {
      scene: 'bind',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/phone/bind`, body, { token, ...withTicket(t) }),
    };
  },
  async 'rebind code'() {
    const account = await signUp(server);
    const phone = nextPhone();
    const body = { phone_number: phone, old_phone_number: account.phone, pid: PID };
    return {
      scene: 'change',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/phone/change`, body, { token: account.token, ...withTicket(t) }),
    };
  },
  async 'password-update code'() {
    const account = await signUp(server);
    const body = { phone_number: account.phone, pid: PID };
    return {
      scene: 'password_update',
      identity: account.phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/password/update`, body, { token: account.token, ...withTicket(t) }),
    };
  },
  async 'third-party bind code'() {
    const oauth_ticket = await oauthTicket();
    const phone = nextPhone();
    const body = { phone_number: phone, oauth_ticket, pid: PID };
    return {
      scene: 'oauth',
      identity: phone,
      ok: 204,
      act: (t) => call('POST', `${A}/captcha/oauth`, body, withTicket(t)),
    };
  },
  async 'password login'() {
    const { phone } = await signUp(server);
    const body = { identity: phone, password: PASSWORD, pid: PID };
    return { scene: 'login', identity: phone, ok: 200, act: (t) => call('POST', `${A}/login`, body, withTicket(t)) };
  },
  async 'password login/security'() {
    const { phone } = await signUp(server);
    const body = { identity: phone, password: PASSWORD, pid: PID };
    return {
      scene: 'login',
      identity: phone,
      ok: 200,
      act: (t) => call('POST', `${A}/login/security`, body, withTicket(t)),
    };
  },
  async 'third-party account creation'() {
    const body = { oauth_ticket: await oauthTicket() };
    return {
      scene: 'oauth',
      identity: '',
      ok: 200,
      act: (t) => call('POST', `${A}/oauth/third-party`, body, withTicket(t)),
    };
  },
};
const ACTION_NAMES = Object.keys(ACTIONS);

const prepare = async (name: string, policy: CaptchaPolicy) => {
  await usePolicy(server, 'never');
  const prepared = await (ACTIONS[name] as () => Promise<Prepared>)();
  await usePolicy(server, policy);
  return prepared;
};

/** What the rule service hands out when no challenge is due: proves the binding, not a human. */
const defaultTicket = async (scene: string, identity: string) => {
  const answer = await call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
    scene,
    identity,
    pid: PID,
  });
  expect(answer.body.rule).toBe('DEFAULT');
  return answer.body.ticket;
};

const expectOk = (answer: Answer, prepared: Prepared) =>
  expect(answer.status, JSON.stringify(answer.body)).toBe(prepared.ok);

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
      loginAttempts: 2,
      ipFailures: 20,
      ipLoginFailures: 50,
      ipSends: 20,
      ruleRequests: 10,
      fallbackRule: 'NONE',
    });
  });
});

/** A server of its own for each risk story: counts by IP would spill over from the others. */
const riskServer = async () => {
  const fresh = await startTestServer();
  return { fresh, call: client(fresh.url) };
};

describe('policy risk thresholds', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const start = async () => {
    const made = await riskServer();
    servers.push(made.fresh);
    return made;
  };

  it('a classroom of 40 behind one address signs in without a challenge, a few after one typo', async () => {
    const { fresh, call } = await start();
    const pupils = [];
    for (let i = 0; i < 40; i++) pupils.push(await signUp(fresh));
    await usePolicy(fresh, 'risk');
    const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });
    const answers = await Promise.all(
      pupils.map(async (pupil, i) => {
        if (i % 4 === 0) expectError(await login(pupil.phone, 'Typo12345'), 'AC3_2');
        return login(pupil.phone, PASSWORD);
      }),
    );
    for (const answer of answers) expectSignedIn(answer);
  }, 180_000);

  it('one account: the first wrong password is no challenge, the third attempt is; a solved one goes on', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const login = (password: string, ticket?: string) =>
      call('POST', `${A}/login`, { identity: account.phone, password, pid: PID }, withTicket(ticket));
    const rule = () =>
      call<{ rule: string }>('POST', '/captcha/rule/v3', {
        identity: account.phone,
        scene: 'login',
        capabilities: ['SLIDE'],
      });
    expectError(await login('Wrong1234'), 'AC3_2');
    expect((await rule()).body.rule).toBe('DEFAULT');
    expectError(await login('Wrong1234'), 'AC3_2');
    expect((await rule()).body.rule).toBe('SLIDE');
    expectError(await login(PASSWORD), 'GCAP_1');
    expectSignedIn(await login(PASSWORD, await solveSlideTicket(fresh, 'login', account.phone)));
    // A success ends the run: the next sign-in is ordinary again.
    expectSignedIn(await login(PASSWORD));
  });

  it('a parallel burst of 30 wrong passwords on one account reaches the password check only twice', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', `${A}/login`, { identity: account.phone, password: 'Wrong1234', pid: PID }),
      ),
    );
    const checked = answers.filter((a) => (a.body as { error_code?: string }).error_code === 'AC3_2');
    expect(checked).toHaveLength(fresh.config.captcha.riskLoginFailures);
    for (const answer of answers) {
      if (!checked.includes(answer)) expectError(answer, 'GCAP_1');
    }
  });

  it('password spraying from one address is challenged after CAPTCHA_RISK_IP_LOGIN_FAILURES wrong passwords', async () => {
    const { fresh, call } = await start();
    const account = await signUp(fresh);
    await usePolicy(fresh, 'risk');
    const limit = fresh.config.captcha.riskIpLoginFailures;
    for (let i = 0; i < limit; i++) {
      expectError(
        await call('POST', `${A}/login`, { identity: `spray_${i}_user`, password: 'Summer2024', pid: PID }),
        'AC3_2',
      );
    }
    // Any account from that address now needs a challenge, its owner included.
    expectError(await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID }), 'GCAP_1');
  }, 180_000);

  it('code sends from one address: CAPTCHA_RISK_IP_SENDS pass unchallenged, even in a parallel burst', async () => {
    const { fresh, call } = await start();
    await usePolicy(fresh, 'risk');
    const limit = fresh.config.captcha.riskIpSends;
    const phones = Array.from({ length: limit + 10 }, () => nextPhone());
    const answers = await Promise.all(
      phones.map((phone) =>
        call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID }),
      ),
    );
    expect(answers.filter((a) => a.status === 204)).toHaveLength(limit);
    for (const answer of answers.filter((a) => a.status !== 204)) expectError(answer, 'GCAP_1');
    // Past the threshold the rule puts up the puzzle, and a solved one sends.
    const phone = nextPhone();
    const rule = await call<{ rule: string }>('POST', '/captcha/rule/v3', {
      identity: phone,
      scene: 'register',
      capabilities: ['SLIDE'],
    });
    expect(rule.body.rule).toBe('SLIDE');
    const ticket = await solveSlideTicket(fresh, 'register', phone);
    const sent = await call(
      'POST',
      `${A}/captcha/register/phone/with-agreement`,
      { phone_number: phone, pid: PID },
      withTicket(ticket),
    );
    expect(sent.status).toBe(204);
  });
});

describe('a classroom under policy always', () => {
  it('40 pupils behind one address can each draw a slide puzzle; CAPTCHA_SLIDE_IP_PER_MINUTE is the ceiling', async () => {
    const fresh = await startTestServer(captchaWith({ '*:*': 'always' }));
    const draw = () => client(fresh.url)('POST', '/captcha/slide/challenge', { scene: 'login', identity: nextPhone() });
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, draw));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      fresh.config.captcha.slideIpPerMinute = 40;
      expectError(await draw(), 'AC3_23');
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;

describe.runIf(redisUrl)('policy risk with the counters in Redis', () => {
  let redisServer: TestServer;
  beforeAll(async () => {
    redisServer = await startTestServer({ redisUrl, ...captchaWith({ '*:*': 'risk' }) });
  });
  afterAll(() => redisServer?.close());

  it('a parallel burst of 30 guesses on one identity reaches the password check only twice', async () => {
    // An identity no other run shares (Redis outlives the test databases).
    const identity = `burst_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        client(redisServer.url)('POST', `${A}/login`, { identity, password: 'Wrong1234', pid: PID }),
      ),
    );
    const codes = answers.map((a) => (a.body as { error_code?: string }).error_code);
    expect(codes.filter((c) => c === 'AC3_2')).toHaveLength(redisServer.config.captcha.riskLoginFailures);
    expect(codes.filter((c) => c === 'GCAP_1')).toHaveLength(30 - redisServer.config.captcha.riskLoginFailures);
  });
});

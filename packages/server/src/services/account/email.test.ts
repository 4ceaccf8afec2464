/**
 * Adding or changing the account's e-mail (email/captcha/bind → PATCH email/bind): a code to the new
 * address, after step-up; a `user.updated` webhook; the old phone and address are told; the new
 * address then resets the password and signs in.
 */
import type { NewWebhookEndpoint, Privacy } from '@edupass/protocol';
import {
  A,
  codeFor,
  expectError,
  expectSignedIn,
  nextEmail,
  PID,
  signInOperator,
  signUp,
  signUpByEmail,
} from '@edupass/test-kit/accounts';
import { useStepUpServer } from '@edupass/test-kit/step-up-server';
import { startWebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { describe, expect, it, vi } from 'vitest';

const { server, call, outbox, later } = useStepUpServer(300, {
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});

const sendBindCode = (token: string, email: string) =>
  call('POST', `${A}/email/captcha/bind`, { email, pid: PID }, { token });
const bind = (token: string, email: string, captcha: string) =>
  call('PATCH', `${A}/email/bind`, { email, captcha }, { token });

const profile = async (token: string) => (await call<Privacy>('GET', `${A}/privacy`, undefined, { token })).body;

describe('adding an e-mail to a phone account', () => {
  it('sends the code to the new address, binds it (204), and the profile shows it; the phone is told', async () => {
    const account = await signUp(server);
    const email = nextEmail();
    const captcha = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: account.token });
    expect((await bind(account.token, email, captcha)).status).toBe(204);
    expect((await profile(account.token)).email).toBe(email);
    expect((await outbox(account.phone)).some((m) => m.code === '' && m.text.includes('e-mail address'))).toBe(true);
  });

  it('an address in mixed case is stored in lower case and signs in by password in either case', async () => {
    const account = await signUp(server);
    const email = nextEmail();
    const mixed = email.toUpperCase();
    expect((await sendBindCode(account.token, mixed)).status).toBe(204);
    const captcha = await server.lastCode(email);
    expect(captcha).toMatch(/^\d{6}$/);
    expect((await bind(account.token, mixed, captcha as string)).status).toBe(204);
    expect((await profile(account.token)).email).toBe(email);
    const login = await call('POST', `${A}/login`, { identity: mixed, password: account.password, pid: PID });
    expect(expectSignedIn(login).user_info.id).toBe(account.userId);
  });

  it('a wrong code is AC3_13 and binds nothing', async () => {
    const account = await signUp(server);
    const email = nextEmail();
    expect((await sendBindCode(account.token, email)).status).toBe(204);
    expectError(await bind(account.token, email, '000000'), 'AC3_13');
    expect((await profile(account.token)).email).toBe('');
  });

  it("another account's address is AC3_61 at the send and at the bind; the account's own is AC3_17", async () => {
    const other = await signUpByEmail(server);
    const account = await signUp(server);
    expectError(await sendBindCode(account.token, other.email), 'AC3_61');
    expectError(await bind(account.token, other.email, '123456'), 'AC3_61');
    expectError(await sendBindCode(other.token, other.email), 'AC3_17');
  });

  it('a code sent for another purpose does not bind', async () => {
    const account = await signUp(server);
    const email = nextEmail();
    const signUpCode = await codeFor(server, 'email/captcha/send', { email, pid: PID });
    expectError(await bind(account.token, email, signUpCode), 'AC3_13');
  });

  it('one code spent by two parallel binds binds once; the address is then taken for others (AC3_61)', async () => {
    const [first, second] = [await signUp(server), await signUp(server)];
    const email = nextEmail();
    const codeOne = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: first.token });
    const answers = await Promise.all([bind(first.token, email, codeOne), bind(first.token, email, codeOne)]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 400]);
    expectError(await sendBindCode(second.token, email), 'AC3_61');
  });
});

describe('changing the e-mail of an e-mail account', () => {
  it('needs step-up once the sign-in is old (E_7 at both steps); a code to the old address proves it', async () => {
    const account = await signUpByEmail(server);
    later();
    const email = nextEmail();
    expectError(await sendBindCode(account.token, email), 'E_7');
    expectError(await bind(account.token, email, '123456'), 'E_7');
    const proof = await codeFor(
      server,
      'step-up/code/send',
      { pid: PID, email: account.email },
      { token: account.token },
    );
    expect((await call('POST', `${A}/step-up/code`, { captcha: proof }, { token: account.token })).status).toBe(204);
    const captcha = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: account.token });
    expect((await bind(account.token, email, captcha)).status).toBe(204);
    expect((await profile(account.token)).email).toBe(email);
    // The old address is told; the new one signs in, the old one no more.
    const notices = (await outbox(account.email)).filter((m) => m.code === '');
    expect(notices.some((m) => m.text.includes('e-mail address of your account was changed'))).toBe(true);
    const old = await call('POST', `${A}/login`, { identity: account.email, password: account.password, pid: PID });
    expectError(old, 'AC3_2');
    const fresh = await call('POST', `${A}/login`, { identity: email, password: account.password, pid: PID });
    expect(expectSignedIn(fresh).user_info.id).toBe(account.userId);
  });

  it('records a user.updated webhook with the new address', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const operator = (await signInOperator(server)).token;
      const added = await call<NewWebhookEndpoint>(
        'POST',
        '/admin/webhooks',
        { product: PID, url: receiver.url, events: ['user.updated'] },
        { token: operator },
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const account = await signUpByEmail(server);
      const email = nextEmail();
      const captcha = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: account.token });
      expect((await bind(account.token, email, captcha)).status).toBe(204);
      await vi.waitFor(
        () => {
          const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: unknown });
          expect(events).toContainEqual({
            type: 'user.updated',
            timestamp: expect.any(String),
            data: { user_id: account.userId, product: PID, changes: { email }, sequence: expect.any(Number) },
          });
        },
        { timeout: 20_000, interval: 50 },
      );
      await call('POST', `/admin/webhooks/${added.body.id}/remove`, {}, { token: operator });
    } finally {
      await receiver.close();
    }
  });

  it('without a session: E_0', async () => {
    expectError(await call('POST', `${A}/email/captcha/bind`, { email: nextEmail(), pid: PID }), 'E_0');
    expectError(await call('PATCH', `${A}/email/bind`, { email: nextEmail(), captcha: '123456' }), 'E_0');
  });
});

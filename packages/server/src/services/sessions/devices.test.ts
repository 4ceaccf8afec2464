/**
 * The signed-in devices over HTTP: the owner's list, ending one session (only the owner, at once for
 * its access token even when the session was remembered, once however many ask), and the password
 * changes that keep the caller's session and end the others only when asked.
 */
import { routes, type SessionSummary, type TokenSet } from '@edupass/protocol';
import { type Call, expectError, PASSWORD, signIn, signUp, T } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const path = (name: keyof typeof routes, id = '') => routes[name].path.replace(':id', encodeURIComponent(id));
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Safari/604.1';

const { server, call, now } = (() => {
  let offset = 0;
  const clock = () => Date.now() + offset;
  const test = useTestServer({ sessionCacheSeconds: 60, refreshGraceSeconds: 0 }, { now: clock });
  return { ...test, now: { advance: (ms: number) => (offset += ms) } };
})();

const devicesOf = async (c: Call, token: string) => {
  const answer = await c<SessionSummary[]>('GET', path('listSessions'), undefined, { token });
  expect(answer.status).toBe(200);
  return answer.body;
};
const profileStatus = async (c: Call, token: string) =>
  (await c('GET', path('getProfile'), undefined, { token })).status;
const endDevice = (c: Call, token: string, id: string) => c('DELETE', path('endSession', id), undefined, { token });

/** A second session of the account, signed in from a phone's browser. */
const signInFromPhone = async (phone: string, password = PASSWORD): Promise<TokenSet> => {
  const answer = await call<{ auth: { token: TokenSet } }>(
    'POST',
    path('loginByPassword'),
    { identity: phone, password, pid: 'edupass' },
    { headers: { 'Auth-Version': '2', 'user-agent': PHONE_UA } },
  );
  expect(answer.status).toBe(200);
  return answer.body.auth.token;
};

describe('GET sessions', () => {
  it("lists the owner's live sessions, the caller's first, with what was stored and the last refresh", async () => {
    const account = await signUp(server);
    const phone = await signInFromPhone(account.phone);
    now.advance(60_000);
    const refreshed = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: phone.refresh.token });
    expect(refreshed.status).toBe(200);

    const devices = await devicesOf(call, account.token);
    expect(devices).toHaveLength(2);
    expect(devices[0]?.current).toBe(true);
    const other = devices[1] as SessionSummary;
    expect(other).toMatchObject({ current: false, user_agent: PHONE_UA, method: 'password' });
    expect(other.last_active_at).toBeGreaterThanOrEqual(other.created_at + 60_000);
    expect(JSON.stringify(devices)).not.toContain(account.token.split('.')[1]);

    // Another account sees only its own.
    const stranger = await signUp(server);
    const theirs = await devicesOf(call, stranger.token);
    expect(theirs.map((d) => d.id)).not.toContain(other.id);
    expect(theirs).toHaveLength(1);
  });
});

describe('DELETE sessions/:id', () => {
  it('ends one session at once, even one the server remembers, and its refresh token with it', async () => {
    const account = await signUp(server);
    const phone = await signInFromPhone(account.phone);
    expect(await profileStatus(call, phone.access.token)).toBe(200); // remembered now
    const id = (await devicesOf(call, account.token)).find((d) => !d.current)?.id as string;

    expect((await endDevice(call, account.token, id)).status).toBe(204);
    expectError(await call('GET', path('getProfile'), undefined, { token: phone.access.token }), 'E_0');
    expect((await call('PUT', `${T}/refresh`, { refresh_token: phone.refresh.token })).status).not.toBe(200);
    expect(await profileStatus(call, account.token)).toBe(200);
    expect((await devicesOf(call, account.token)).map((d) => d.id)).not.toContain(id);
  });

  it("only the owner: another account's session is not found and keeps working", async () => {
    const owner = await signUp(server);
    const ownerId = (await devicesOf(call, owner.token))[0]?.id as string;
    const intruder = await signUp(server);
    expectError(await endDevice(call, intruder.token, ownerId), 'E_2');
    expectError(await endDevice(call, intruder.token, 'no-such-session'), 'E_2');
    expect(await profileStatus(call, owner.token)).toBe(200);
  });

  it('signing the same device out from many requests at once ends it once and answers each', async () => {
    const account = await signUp(server);
    const phone = await signInFromPhone(account.phone);
    const id = (await devicesOf(call, account.token)).find((d) => !d.current)?.id as string;
    const answers = await Promise.all(Array.from({ length: 6 }, () => endDevice(call, account.token, id)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(204));
    expectError(await call('GET', path('getProfile'), undefined, { token: phone.access.token }), 'E_0');
    expect(await profileStatus(call, account.token)).toBe(200);
  });

  it('"sign out all others" and single sign-outs racing leave only the caller signed in', async () => {
    const account = await signUp(server);
    const others = await Promise.all([signIn(server, account.phone), signIn(server, account.phone)]);
    const ids = (await devicesOf(call, account.token)).filter((d) => !d.current).map((d) => d.id);
    const answers = await Promise.all([
      call('POST', path('endOtherSessions'), undefined, { token: account.token }),
      ...ids.map((id) => endDevice(call, account.token, id)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(204));
    for (const other of others) expect(await profileStatus(call, other.access.token)).toBe(403);
    expect(await devicesOf(call, account.token)).toHaveLength(1);
  });

  it('a session signed in longer ago than STEP_UP_SECONDS signs out another device, or all others, only after a proof; itself at once', async () => {
    const account = await signUp(server);
    const phone = await signInFromPhone(account.phone);
    const laptop = await signIn(server, account.phone);
    // The phone's token, lifted once the proof its sign-in gave has lapsed (refreshed meanwhile).
    now.advance((server.config.stepUpSeconds + 60) * 1000);
    const lifted = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: phone.refresh.token });
    expect(lifted.status).toBe(200);
    const stolen = lifted.body.access.token;
    const devices = await devicesOf(call, stolen);
    const others = devices.filter((d) => !d.current).map((d) => d.id);
    expect(others).toHaveLength(2);

    for (const id of others) expectError(await endDevice(call, stolen, id), 'E_7');
    expectError(await call('POST', path('endOtherSessions'), undefined, { token: stolen }), 'E_7');
    expect(await devicesOf(call, stolen)).toHaveLength(3);
    expect(await profileStatus(call, account.token)).toBe(200);
    expect(await profileStatus(call, laptop.access.token)).toBe(200);

    // The owner's proof (here the password) lets the same session do it.
    const proved = await call('POST', path('stepUpByPassword'), { password: PASSWORD }, { token: stolen });
    expect(proved.status).toBe(204);
    expect((await endDevice(call, stolen, others[0] as string)).status).toBe(204);
    expect((await call('POST', path('endOtherSessions'), undefined, { token: stolen })).status).toBe(204);
    expect(await devicesOf(call, stolen)).toHaveLength(1);

    // Signing itself out asks for nothing, however old the session.
    const own = devices.find((d) => d.current)?.id as string;
    now.advance((server.config.stepUpSeconds + 60) * 1000);
    const current = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: lifted.body.refresh.token });
    expect(current.status).toBe(200);
    expect((await endDevice(call, current.body.access.token, own)).status).toBe(204);
    expect(await profileStatus(call, current.body.access.token)).toBe(403);
  });
});

describe('password change keeping the session', () => {
  const change = (token: string, endOthers: boolean, password: string, old = PASSWORD) =>
    call(
      'PATCH',
      path('changePasswordKeepingSession'),
      { old_password: old, password, confirm_password: password, end_other_sessions: endOthers },
      { token },
    );

  it('keeps this device and, when asked, ends every other one at once', async () => {
    const account = await signUp(server);
    const other = await signIn(server, account.phone);
    expect(await profileStatus(call, other.access.token)).toBe(200);
    expect((await change(account.token, true, 'Changed456')).status).toBe(204);
    expect(await profileStatus(call, account.token)).toBe(200);
    expectError(await call('GET', path('getProfile'), undefined, { token: other.access.token }), 'E_0');
    expect(await devicesOf(call, account.token)).toHaveLength(1);
  });

  it('keeps the others when the user chooses so; they can be ended later', async () => {
    const account = await signUp(server);
    const other = await signIn(server, account.phone);
    expect((await change(account.token, false, 'Changed789')).status).toBe(204);
    expect(await profileStatus(call, other.access.token)).toBe(200);
    expect(await profileStatus(call, account.token)).toBe(200);
    expect((await call('POST', path('endOtherSessions'), undefined, { token: account.token })).status).toBe(204);
    expect(await profileStatus(call, other.access.token)).toBe(403);
  });

  it('a wrong current password changes nothing; the older route still ends every session', async () => {
    const account = await signUp(server);
    expectError(await change(account.token, true, 'Changed456', 'Wrong12345'), 'AC3_9');
    expect(await profileStatus(call, account.token)).toBe(200);
    const body = { old_password: PASSWORD, password: 'Changed321', confirm_password: 'Changed321' };
    expect((await call('PATCH', path('changePassword'), body, { token: account.token })).status).toBe(204);
    expect(await profileStatus(call, account.token)).toBe(403);
  });

  it('refuses a body without the choice', async () => {
    const account = await signUp(server);
    const body = { old_password: PASSWORD, password: 'Changed456', confirm_password: 'Changed456' };
    expectError(await call('PATCH', path('changePasswordKeepingSession'), body, { token: account.token }), 'E_1');
  });
});

/**
 * The security log lines of the sign-in, step-up, token and operator paths: the event, the account
 * or a hash of the identity typed (never the identity itself), the IP and the reason. A block by an
 * operator is in the audit log as well.
 */
import { routes } from '@edupass/protocol';
import { A, auditorToken, PASSWORD, PID, signIn, signInOperator, signUp, T } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityHash, type SecurityEvent } from '../services/security/events.ts';

let offset = 0;
const { server, call } = useTestServer(
  { loginLockAfter: 3, loginSlowdownAfter: 3, stepUpSeconds: 300 },
  { now: () => Date.now() + offset },
);

/** The security events logged while `work` runs. */
const eventsDuring = async (work: () => Promise<unknown>) => {
  const warn = vi.spyOn(server.app.ctx.logger, 'warn');
  await work();
  const events = warn.mock.calls
    .map(([obj]) => (obj as { security?: SecurityEvent & { identity?: string } }).security)
    .filter((event) => event !== undefined);
  warn.mockRestore();
  return events;
};

afterEach(() => vi.restoreAllMocks());

describe('security events', () => {
  it('a failed sign-in logs login_failed with the IP and a hash of the identity; a lock logs login_locked', async () => {
    const account = await signUp(server);
    const wrong = () => call('POST', `${A}/login`, { identity: account.phone, password: 'Wrong2718q', pid: PID });
    const events = await eventsDuring(async () => {
      for (let i = 0; i < 4; i++) await wrong();
    });
    const failed = events.filter((e) => e.event === 'login_failed');
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatchObject({
      userId: account.userId,
      identity: identityHash(server.app.ctx, account.phone),
      ip: expect.any(String),
      reason: 'wrong password',
    });
    expect(JSON.stringify(events)).not.toContain(account.phone);
    expect(events.filter((e) => e.event === 'login_locked')).toHaveLength(1);
  });

  it('an unknown identity is logged by its hash alone', async () => {
    const events = await eventsDuring(() =>
      call('POST', `${A}/login`, { identity: 'nobody@example.com', password: 'Wrong2718q', pid: PID }),
    );
    expect(events).toEqual([
      expect.objectContaining({ event: 'login_failed', identity: identityHash(server.app.ctx, 'nobody@example.com') }),
    ]);
    expect(events[0]?.userId).toBeUndefined();
  });

  it('step-up: required, failed and passed', async () => {
    const account = await signUp(server);
    offset += 301_000;
    const events = await eventsDuring(async () => {
      await call(
        'PATCH',
        `${A}/phone/change`,
        { phone_number: '13900000000', captcha: '123456' },
        { token: account.token },
      );
      await call('POST', `${A}/step-up/password`, { password: 'Wrong2718q' }, { token: account.token });
      await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: account.token });
    });
    expect(events.map((e) => e.event)).toEqual(['step_up_required', 'step_up_failed', 'step_up_passed']);
    expect(events[0]).toMatchObject({ userId: account.userId, reason: 'rebindPhone' });
  });

  it('a refresh token used again after the grace window logs refresh_reuse', async () => {
    const account = await signUp(server);
    expect((await call('PUT', `${T}/refresh`, { refresh_token: account.refresh })).status).toBe(200);
    offset += (server.config.refreshGraceSeconds + 1) * 1000;
    const events = await eventsDuring(() => call('PUT', `${T}/refresh`, { refresh_token: account.refresh }));
    expect(events).toEqual([expect.objectContaining({ event: 'refresh_reuse', userId: account.userId })]);
  });

  it('an operator sign-in logs operator_sign_in; a block logs user_blocked and is in the audit log', async () => {
    const events = await eventsDuring(() => signInOperator(server));
    expect(events.some((e) => e.event === 'operator_sign_in')).toBe(true);
    const operator = await signInOperator(server);
    const user = await signUp(server);
    const blocked = await eventsDuring(() =>
      call('POST', routes.blockUser.path.replace(':id', String(user.userId)), undefined, { token: operator.token }),
    );
    expect(blocked).toEqual([expect.objectContaining({ event: 'user_blocked', userId: user.userId })]);
    const audit = await call<{ items?: { action: string; target: string }[] } | { action: string; target: string }[]>(
      'GET',
      `${routes.listAudit.path}?action=user.block`,
      undefined,
      { token: await auditorToken(server) },
    );
    expect(JSON.stringify(audit.body)).toContain(`user:${user.userId}`);
  });

  it('a plain user sign-in is not an operator sign-in', async () => {
    const account = await signUp(server);
    const events = await eventsDuring(() => signIn(server, account.phone));
    expect(events.filter((e) => e.event === 'operator_sign_in')).toEqual([]);
  });
});

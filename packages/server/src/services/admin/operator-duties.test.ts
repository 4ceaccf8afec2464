/**
 * The three operator duties (protocol's operator-duties.ts) through the real server: the system
 * operator is refused the audit log, the auditor a user edit, the security operator the users; no one
 * reads their own entries; every admin route is refused to an operator without its duty.
 */
import { type OperatorDuty, ROUTE_DUTIES, routes } from '@edupass/protocol';
import { auditorToken, expectError, nextPhone, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';
import { createAdmin } from '../../cli/admin.ts';
import { findUserByPhone } from '../../store/account/users.ts';

const { server, call } = useTestServer();

const operatorWith = async (duties: OperatorDuty[]) => (await signInOperator(server, nextPhone(), duties)).token;

const pathOf = (path: string, params: Record<string, number>) =>
  path.replace(/:(\w+)/g, (_, name: string) => String(params[name] ?? 1));

describe('operator duties', () => {
  test('the system operator is refused the audit log; the auditor is refused a user edit', async () => {
    const system = await operatorWith(['system']);
    const auditor = await operatorWith(['auditor']);
    const user = await signUp(server);

    const refused = await call('GET', routes.listAudit.path, undefined, { token: system });
    expectError(refused, 'E_4');
    expect((refused.body as { error_message: string }).error_message).toBe(
      'This needs the auditor duty; yours: system.',
    );
    expect((await call('POST', `/admin/users/${user.userId}/block`, {}, { token: system })).status).toBe(204);

    expectError(await call('POST', `/admin/users/${user.userId}/unblock`, {}, { token: auditor }), 'E_4');
    expectError(await call('GET', routes.searchUsers.path, undefined, { token: auditor }), 'E_4');
    const audit = await call<{ action: string; target: string }[]>('GET', routes.listAudit.path, undefined, {
      token: auditor,
    });
    expect(audit.body).toContainEqual(expect.objectContaining({ action: 'user.block', target: `user:${user.userId}` }));
  });

  test('the security operator rotates keys and sets captcha, and is refused users and the audit log', async () => {
    const security = await operatorWith(['security']);
    const system = await operatorWith(['system']);
    expect((await call('GET', routes.listSigningKeys.path, undefined, { token: security })).status).toBe(200);
    const policy = { pid: 'edupass', scene: 'register', policy: 'always' };
    expect((await call('POST', routes.setCaptchaPolicy.path, policy, { token: security })).status).toBe(204);
    expectError(await call('POST', routes.setCaptchaPolicy.path, policy, { token: system }), 'E_4');
    expectError(await call('GET', routes.searchUsers.path, undefined, { token: security }), 'E_4');
    expectError(await call('GET', routes.listAudit.path, undefined, { token: security }), 'E_4');
    await call('POST', routes.clearCaptchaPolicy.path, { pid: 'edupass', scene: 'register' }, { token: security });
  });

  test("no one reads their own entries: an auditor's own actions are left out of what they read", async () => {
    // An operator holding every duty changes something and reads the log: their entry is not there…
    const all = await operatorWith(['system', 'security', 'auditor']);
    const user = await signUp(server);
    expect((await call('POST', `/admin/users/${user.userId}/block`, {}, { token: all })).status).toBe(204);
    const own = await call<{ target: string }[]>('GET', `${routes.listAudit.path}?limit=500`, undefined, {
      token: all,
    });
    expect(own.status).toBe(200);
    expect(own.body.some((entry) => entry.target === `user:${user.userId}`)).toBe(false);
    // …another auditor sees it.
    const other = await call<{ target: string }[]>('GET', `${routes.listAudit.path}?limit=500`, undefined, {
      token: await auditorToken(server),
    });
    expect(other.body.some((entry) => entry.target === `user:${user.userId}`)).toBe(true);
  });

  test('who am I: the console asks for the duties it shows', async () => {
    const auditor = await operatorWith(['auditor']);
    expect((await call('GET', routes.operatorSelf.path, undefined, { token: auditor })).body).toMatchObject({
      duties: ['auditor'],
      password_expired: false,
      idle_minutes: 0,
    });
    const user = await signUp(server);
    expectError(await call('GET', routes.operatorSelf.path, undefined, { token: user.token }), 'E_4');
  });

  test('every admin route refuses an operator without its duty, before reading its input', async () => {
    const tokens = {
      system: await operatorWith(['system']),
      security: await operatorWith(['security']),
      auditor: await operatorWith(['auditor']),
    };
    for (const [name, duties] of Object.entries(ROUTE_DUTIES)) {
      const spec = routes[name as keyof typeof ROUTE_DUTIES];
      for (const duty of ['system', 'security', 'auditor'] as const) {
        if (duties.includes(duty)) continue;
        const body = spec.method === 'GET' ? undefined : {};
        const answer = await call(spec.method, pathOf(spec.path, {}), body, { token: tokens[duty] });
        expect(answer.body, `${name} as ${duty}`).toMatchObject({ error_code: 'E_4' });
      }
    }
  });

  test('the CLI appoints an auditor and keeps an existing operator’s duties unless told', async () => {
    const phone = nextPhone();
    expect(await createAdmin(server.app.ctx, phone, 'Kestrel-2718')).toMatch(/: system,security\.$/);
    expect(await createAdmin(server.app.ctx, phone, undefined)).toMatch(/now an operator: system,security\.$/);
    expect(await createAdmin(server.app.ctx, phone, undefined, ['auditor'])).toMatch(/now an operator: auditor\.$/);
    expect((await findUserByPhone(server.app.ctx.db, phone))?.operator_duties).toBe('auditor');
  });
});

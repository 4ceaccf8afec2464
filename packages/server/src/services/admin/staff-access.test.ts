/**
 * An operator's read of a minor's record (issue #31 item 5), over HTTP: without a reason it is refused
 * with E_1 and nothing is shown or logged; where approvals are on, a reason alone is refused with E_4
 * until another operator approves a request naming that person (nobody approves their own), and
 * the approval runs out at its expiry. Adults' records need no reason, and every read is logged.
 * The person (or, for the pupil, whoever signs in as them) sees each read in "who read my record".
 */
import { type EduAccessLog, routes, type StaffAccess, type StaffAccessRequest } from '@edupass/protocol';
import { expectError, signIn, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { findUserByPhone } from '../../store/account/users.ts';

const HOUR = 3_600_000;

/** The server's and a school with one pupil (8–13) in one class; the operator who made it. */
const setUp = (approvals: boolean) => {
  let clock = Date.now();
  const { server, call } = useTestServer(
    { staffAccessApproval: approvals, staffAccessApprovalHours: 2, accessTokenTtlSeconds: 7 * 86_400 },
    { now: () => clock },
  );
  const edu = eduSteps(server, call);
  const state = {
    server,
    call,
    edu,
    pupil: { id: 0, username: '', password: '' },
    operators: [] as { id: number; token: string }[],
    moveClock: (ms: number) => {
      clock += ms;
    },
  };
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const signedIn = await signInOperator(server);
      const row = await findUserByPhone(server.app.ctx.db, signedIn.phone);
      state.operators.push({ id: Number(row?.id), token: signedIn.token });
    }
    const schoolId = await edu.addSchool('审批小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, ['赵小敏']);
    if (!pupil) throw new Error('no pupil');
    // The pupil chose their own password (the school asks for it before anything else).
    const { password } = await edu.pupilSession(pupil);
    state.pupil = { id: pupil.user_id, username: pupil.username, password };
  });
  return state;
};

const readUser = (s: ReturnType<typeof setUp>, token: string, userId: number, reason?: string) =>
  s.call(
    'GET',
    `${pathOf(routes.getUser.path, { id: userId })}${reason === undefined ? '' : `?reason=${encodeURIComponent(reason)}`}`,
    undefined,
    { token },
  );

/** The reads of the person's record as they see them (signed in as themselves). */
const ownLog = async (s: ReturnType<typeof setUp>, identity: string, password?: string) => {
  const token = (await signIn(s.server, identity, password)).access.token;
  return s.edu.ok<EduAccessLog>(await s.call('GET', routes.eduAccessLog.path, undefined, { token })).reads;
};

describe('approvals off: a reason opens a minor’s record, and every read is logged', () => {
  const s = setUp(false);

  test('no reason: E_1 with what to give, nothing shown, nothing logged; with one: shown and logged with it', async () => {
    const [operator] = s.operators;
    if (!operator) throw new Error('no operator');
    const refused = await readUser(s, operator.token, s.pupil.id);
    expectError(refused, 'E_1');
    expect((refused.body as { error_message: string }).error_message).toMatch(/reason/);
    expect(JSON.stringify(refused.body)).not.toContain(s.pupil.username);
    expectError(await readUser(s, operator.token, s.pupil.id, '   '), 'E_1');
    expect((await ownLog(s, s.pupil.username, s.pupil.password)).filter((r) => r.reader_role === 'operator')).toEqual(
      [],
    );

    const shown = s.edu.ok<{ user: { minor: boolean }; identities: { username: string } }>(
      await readUser(s, operator.token, s.pupil.id, '家长来电要求核实账号'),
    );
    expect(shown.user.minor).toBe(true);
    expect(shown.identities.username).toBe(s.pupil.username);
    const reads = (await ownLog(s, s.pupil.username, s.pupil.password)).filter((r) => r.reader_role === 'operator');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({
      reader_id: operator.id,
      purpose: 'user_detail',
      reason: '家长来电要求核实账号',
      fields: expect.arrayContaining(['phone', 'username', 'sessions']),
    });
  });

  test('an adult’s record needs no reason; the read and the search rows are logged; a minor’s search row shows nothing of them', async () => {
    const [operator] = s.operators;
    if (!operator) throw new Error('no operator');
    const adult = await signUp(s.server);
    s.edu.ok(await readUser(s, operator.token, adult.userId));
    const page = s.edu.ok<{ items: { id: number; phone: string | null; username: string | null; minor: boolean }[] }>(
      await s.call('GET', `${routes.searchUsers.path}?limit=100`, undefined, { token: operator.token }),
    );
    expect(page.items.find((u) => u.id === adult.userId)).toMatchObject({ phone: adult.phone, minor: false });
    expect(page.items.find((u) => u.id === s.pupil.id)).toMatchObject({ phone: null, username: null, minor: true });
    const reads = await ownLog(s, adult.phone);
    expect(reads.map((r) => [r.reader_id, r.reader_role, r.purpose])).toEqual([
      [operator.id, 'operator', 'user_search'],
      [operator.id, 'operator', 'user_detail'],
    ]);
    expect(reads.every((r) => r.reason === null)).toBe(true);
  });
});

describe('approvals on: a minor’s record needs another operator’s approval, until it expires', () => {
  const s = setUp(true);

  test('request, approve by another, read within the expiry; not by oneself, not by a third, not after', async () => {
    const [asker, approver] = s.operators;
    if (!asker || !approver) throw new Error('no operators');
    const reason = '处理家长的更正请求';

    const refused = await readUser(s, asker.token, s.pupil.id, reason);
    expectError(refused, 'E_4');
    expect((refused.body as { error_message: string }).error_message).toMatch(/approval/);
    expect(JSON.stringify(refused.body)).not.toContain(s.pupil.username);

    expectError(
      await s.call('POST', routes.requestStaffAccess.path, { user_id: s.pupil.id, reason: '' }, { token: asker.token }),
      'E_1',
    );
    const asked = s.edu.ok<StaffAccessRequest>(
      await s.call('POST', routes.requestStaffAccess.path, { user_id: s.pupil.id, reason }, { token: asker.token }),
    );
    expect(asked).toMatchObject({ status: 'pending', requested_by: asker.id, subject_id: s.pupil.id, reason });
    const pending = s.edu.ok<StaffAccess>(
      await s.call('GET', routes.listStaffAccess.path, undefined, { token: approver.token }),
    );
    expect(pending.approvals_required).toBe(true);
    expect(pending.requests.filter((r) => r.status === 'pending').map((r) => r.id)).toEqual([asked.id]);

    // Nobody approves their own request.
    expectError(
      await s.call('POST', pathOf(routes.approveStaffAccess.path, { id: asked.id }), {}, { token: asker.token }),
      'E_4',
    );
    expectError(await readUser(s, asker.token, s.pupil.id, reason), 'E_4');

    const approved = s.edu.ok<StaffAccessRequest>(
      await s.call('POST', pathOf(routes.approveStaffAccess.path, { id: asked.id }), {}, { token: approver.token }),
    );
    expect(approved).toMatchObject({ status: 'approved', decided_by: approver.id });
    expect(approved.expires_at).toBe(Number(approved.decided_at) + 2 * HOUR);
    // Decided once.
    expectError(
      await s.call('POST', pathOf(routes.refuseStaffAccess.path, { id: asked.id }), {}, { token: approver.token }),
      'E_1',
    );

    s.edu.ok(await readUser(s, asker.token, s.pupil.id, reason));
    // Still a reason each time; and the approval is the asker's alone.
    expectError(await readUser(s, asker.token, s.pupil.id), 'E_1');
    expectError(await readUser(s, approver.token, s.pupil.id, reason), 'E_4');

    s.moveClock(2 * HOUR + 1);
    expectError(await readUser(s, asker.token, s.pupil.id, reason), 'E_4');

    const reads = (await ownLog(s, s.pupil.username, s.pupil.password)).filter((r) => r.reader_role === 'operator');
    expect(reads.map((r) => [r.reader_id, r.reason])).toEqual([[asker.id, reason]]);
  });

  test("a copy of a minor's data asks what opening the record asks: a reason, another operator's approval; the read is logged", async () => {
    const [approver, asker] = s.operators;
    if (!asker || !approver) throw new Error('no operators');
    const reason = '家长请求导出孩子的数据';
    const exportOf = (body: { reason?: string }) =>
      s.call('POST', pathOf(routes.requestUserExport.path, { id: s.pupil.id }), body, { token: asker.token });
    const copies = async () =>
      s.edu.ok<{ exports: unknown[] }>(
        await s.call('GET', pathOf(routes.listUserExports.path, { id: s.pupil.id }), undefined, { token: asker.token }),
      ).exports;

    expectError(await exportOf({}), 'E_1');
    expectError(await exportOf({ reason }), 'E_4');
    expect(await copies()).toEqual([]);

    const asked = s.edu.ok<StaffAccessRequest>(
      await s.call('POST', routes.requestStaffAccess.path, { user_id: s.pupil.id, reason }, { token: asker.token }),
    );
    s.edu.ok(
      await s.call('POST', pathOf(routes.approveStaffAccess.path, { id: asked.id }), {}, { token: approver.token }),
    );
    s.edu.ok(await exportOf({ reason }));
    expect(await copies()).toHaveLength(1);

    const reads = (await ownLog(s, s.pupil.username, s.pupil.password)).filter((r) => r.purpose === 'user_export');
    expect(reads.map((r) => [r.reader_id, r.reason, r.fields.includes('phone')])).toEqual([[asker.id, reason, true]]);
    s.moveClock(2 * HOUR + 1); // the approval ends, as each test here starts without one
  });

  test('a refused request opens nothing', async () => {
    const [asker, approver] = s.operators;
    if (!asker || !approver) throw new Error('no operators');
    const asked = s.edu.ok<StaffAccessRequest>(
      await s.call(
        'POST',
        routes.requestStaffAccess.path,
        { user_id: s.pupil.id, reason: '查看' },
        { token: approver.token },
      ),
    );
    const refused = s.edu.ok<StaffAccessRequest>(
      await s.call('POST', pathOf(routes.refuseStaffAccess.path, { id: asked.id }), {}, { token: asker.token }),
    );
    expect(refused).toMatchObject({ status: 'refused', expires_at: null });
    expectError(await readUser(s, approver.token, s.pupil.id, '查看'), 'E_4');
  });
});

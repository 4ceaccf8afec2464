/**
 * Data-rights requests and the yearly report on seeded data, over HTTP on a moved clock: deletions
 * open, close and cancel their requests; an operator records a correction and an objection, refuses
 * one with a reason; what passed its due date is marked late; a guardian sees who read the child's
 * record; and the yearly report — from the console's route and from `edupass report yearly` — gives
 * exactly the counts the seeding made.
 */

import {
  type DataRequest,
  type EduAccessLog,
  routes,
  type StaffAccessRequest,
  type YearlyReport,
  yearlyReportCsv,
} from '@edupass/protocol';
import {
  A,
  type Account,
  expectError,
  PASSWORD,
  PID,
  signInOperator,
  signUp,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runCli } from '../../cli.ts';
import { findUserByPhone } from '../../store/account/users.ts';
import { dueAfter } from '../account/data-requests.ts';
import { sweepOnce } from '../platform/housekeeping.ts';

const DAY = 86_400_000;
/** Real time, or 5 January next year in the last days of December: the seeding stays inside one year. */
const start = (() => {
  const now = new Date();
  return now.getUTCMonth() === 11 && now.getUTCDate() > 20
    ? Date.UTC(now.getUTCFullYear() + 1, 0, 5, 4)
    : now.getTime();
})();
let clock = start;
const YEAR = new Date(start + 8 * 3_600_000).getUTCFullYear();

const { server, call } = useTestServer(
  { accountDeletionGraceDays: 2, dataRequestDueWorkingDays: 1, accessTokenTtlSeconds: 30 * 86_400 },
  { now: () => clock },
);
const edu = eduSteps(server, call);

const { signUpAged } = edu;

const operators: { id: number; token: string }[] = [];
const seeded = { childA: 0, deleted: 0, objection: 0, correction: 0 };
let guardian: Account;

/** A guardian's decision on the child's consent link. */
const decide = async (child: Account, who: Account, decision: 'consent' | 'refuse') => {
  const link = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  ).link;
  edu.ok(await call('POST', routes.consentRequest.path, { link }, { token: who.token }));
  edu.ok(
    await call('POST', routes.decideConsent.path, { link, decision, relation: 'mother' }, { token: who.token }),
    204,
  );
};

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const signedIn = await signInOperator(server);
    operators.push({
      id: Number((await findUserByPhone(server.app.ctx.db, signedIn.phone))?.id),
      token: signedIn.token,
    });
  }
  const [op, other] = operators;
  if (!op || !other) throw new Error('no operators');
  // Two pupils (8–13) a teacher created: two teacher reads (the accounts made).
  const schoolId = await edu.addSchool('年报小学');
  const teacher = await edu.approvedTeacher(schoolId);
  await edu.createPupils(teacher, await edu.createClass(teacher, schoolId), ['周一', '周二']);
  await signUpAged(15);
  await signUpAged(30);
  // A child whose guardian consents (read by an operator, with a reason), then withdraws.
  const childA = await signUpAged(10);
  seeded.childA = childA.userId;
  guardian = await signUpAged(40);
  await decide(childA, guardian, 'consent');
  edu.ok(
    await call('POST', pathOf(routes.withdrawConsent.path, { id: childA.userId }), {}, { token: guardian.token }),
    204,
  );
  edu.ok(
    await call(
      'GET',
      `${pathOf(routes.getUser.path, { id: childA.userId })}?reason=${encodeURIComponent('核实家长来电')}`,
      undefined,
      { token: op.token },
    ),
  );
  const asked = edu.ok<StaffAccessRequest>(
    await call(
      'POST',
      routes.requestStaffAccess.path,
      { user_id: childA.userId, reason: '年度核查' },
      { token: op.token },
    ),
  );
  edu.ok(await call('POST', pathOf(routes.approveStaffAccess.path, { id: asked.id }), {}, { token: other.token }));
  // A child whose guardian refuses: erased at once.
  const childB = await signUpAged(10);
  await decide(childB, await signUpAged(41), 'refuse');
  // An adult deletes their account (grace: 2 days); another deletes and keeps it by signing in.
  const leaving = await signUp(server);
  seeded.deleted = leaving.userId;
  edu.ok(await call('DELETE', `${A}/account`, undefined, { token: leaving.token }), 204);
  const staying = await signUp(server);
  edu.ok(await call('DELETE', `${A}/account`, undefined, { token: staying.token }), 204);
  const refused = await call<{ deletion_ticket: string }>(
    'POST',
    `${A}/login`,
    { identity: staying.phone, password: PASSWORD, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );
  edu.ok(
    await call(
      'POST',
      `${A}/account/deletion/cancel`,
      { deletion_ticket: refused.body.deletion_ticket },
      { headers: TOKEN_SET_HEADERS },
    ),
  );
  // A correction refused at once, with the reason; an objection left open.
  const adult = await signUp(server);
  const record = async (kind: string, detail: string) =>
    edu.ok<DataRequest>(
      await call('POST', routes.recordDataRequest.path, { user_id: adult.userId, kind, detail }, { token: op.token }),
    ).id;
  seeded.correction = await record('correction', '昵称写错了');
  seeded.objection = await record('objection', '不同意用于推荐');
  edu.ok(
    await call(
      'POST',
      pathOf(routes.closeDataRequest.path, { id: seeded.correction }),
      { status: 'refused', reason: '昵称由本人在账号中心修改' },
      { token: op.token },
    ),
  );
  // Four days on: the deletion's grace has ended (the sweep erases it, after its due date).
  clock = start + 4 * DAY;
  expect(await sweepOnce(server.app.ctx)).toBe(true);
});

afterAll(() => vi.restoreAllMocks());

describe('data-rights requests', () => {
  test('the due date is the end of the working day so many working days on, China time, weekends skipped', () => {
    // Friday 2026-11-20 10:00 in Beijing: 15 working days on is Friday 2026-12-11, its last millisecond.
    const friday = Date.UTC(2026, 10, 20, 2);
    expect(dueAfter(friday, 15)).toBe(Date.UTC(2026, 11, 11, 16) - 1);
    expect(dueAfter(friday, 1)).toBe(Date.UTC(2026, 10, 23, 16) - 1);
  });

  test('deletions record themselves; the console lists every request, the late ones marked', async () => {
    const [op] = operators;
    const all = edu.ok<DataRequest[]>(await call('GET', routes.listDataRequests.path, undefined, { token: op?.token }));
    const deletion = all.find((r) => r.user_id === seeded.deleted);
    expect(deletion).toMatchObject({ kind: 'deletion', requested_by: 'user', status: 'done', late: true });
    expect(deletion?.closed_at).toBe(start + 4 * DAY);
    expect(deletion?.due_at).toBe(dueAfter(start, 1));
    expect(all.find((r) => r.id === seeded.correction)).toMatchObject({
      status: 'refused',
      refusal_reason: '昵称由本人在账号中心修改',
      late: false,
    });
    const open = edu.ok<DataRequest[]>(
      await call('GET', `${routes.listDataRequests.path}?status=open`, undefined, { token: op?.token }),
    );
    expect(open.map((r) => [r.id, r.kind, r.late])).toEqual([[seeded.objection, 'objection', true]]);
  });

  test('bad input is refused with E_1, and an answered request stays answered', async () => {
    const [op] = operators;
    const token = op?.token;
    expectError(await call('GET', `${routes.listDataRequests.path}?status=late`, undefined, { token }), 'E_1');
    expectError(
      await call(
        'POST',
        routes.recordDataRequest.path,
        { user_id: seeded.childA, kind: 'deletion', detail: 'x' },
        { token },
      ),
      'E_1',
    );
    expectError(
      await call(
        'POST',
        routes.recordDataRequest.path,
        { user_id: seeded.childA, kind: 'objection', detail: ' ' },
        { token },
      ),
      'E_1',
    );
    const close = (id: number, status: string, reason?: string) =>
      call('POST', pathOf(routes.closeDataRequest.path, { id }), { status, ...(reason ? { reason } : {}) }, { token });
    expectError(await close(seeded.objection, 'refused'), 'E_1');
    expectError(await close(seeded.objection, 'maybe'), 'E_1');
    expectError(await close(seeded.correction, 'done'), 'E_1');
    expectError(
      await call(
        'POST',
        routes.recordDataRequest.path,
        { user_id: 999_999, kind: 'objection', detail: '反对' },
        { token },
      ),
      'AC3_3',
    );
    expectError(await close(999_999, 'done'), 'E_2');
  });
});

describe('who read the child’s record, for the guardian', () => {
  test('the linked guardian sees the operator’s read with its reason; anyone else is answered E_2', async () => {
    const [op] = operators;
    const log = edu.ok<EduAccessLog>(
      await call('GET', pathOf(routes.childAccessLog.path, { id: seeded.childA }), undefined, {
        token: guardian.token,
      }),
    );
    expect(log.reads.map((r) => [r.reader_id, r.reader_role, r.purpose, r.reason])).toEqual([
      [op?.id, 'operator', 'user_detail', '核实家长来电'],
    ]);
    const stranger = await signUp(server);
    expectError(
      await call('GET', pathOf(routes.childAccessLog.path, { id: seeded.childA }), undefined, {
        token: stranger.token,
      }),
      'E_2',
    );
  });
});

describe('the yearly report', () => {
  const expected = {
    year: YEAR,
    // Opened: the child erased at the guardian's refusal counts too (five made in the year, one erased).
    // Of them, four children (aged 8–13); the one erased was a child.
    minors: {
      accounts_at_year_end: { '8_13': 3, '14_15': 1 },
      opened: 5,
      children_opened: 4,
      erased: 1,
      children_erased: 1,
    },
    consents: { granted: 1, refused: 1, withdrawn: 1 },
    requests: {
      made: { deletion: 3, correction: 1, objection: 1 },
      handled: { deletion: 2, correction: 1 },
      refused: 1,
      answered_late: 1,
      open_late_at_year_end: 1,
      days_to_answer: { average: 1.33, longest: 4 },
    },
    staff_accesses: {
      reads: { teacher: 2, operator: 1 },
      operator_reads_of_minors: 1,
      people_read: 3,
      children_read: 3,
      approvals: { requested: 1, approved: 1, refused: 0 },
    },
    deletions: { erased: { guardian: 1, user: 1 }, cancelled: 1 },
  };

  test('the console’s report gives exactly the counts the seeding made; the year before is empty', async () => {
    const [op] = operators;
    const report = edu.ok<YearlyReport>(
      await call('GET', `${routes.yearlyReport.path}?year=${YEAR}`, undefined, { token: op?.token }),
    );
    const { from, to, ...counts } = report;
    expect(counts).toEqual(expected);
    expect(to - from + 1).toBe((YEAR % 4 === 0 ? 366 : 365) * DAY);
    const before = edu.ok<YearlyReport>(
      await call('GET', `${routes.yearlyReport.path}?year=${YEAR - 1}`, undefined, { token: op?.token }),
    );
    expect(before.consents).toEqual({ granted: 0, refused: 0, withdrawn: 0 });
    expect(before.requests.made).toEqual({});
    expectError(await call('GET', `${routes.yearlyReport.path}?year=26`, undefined, { token: op?.token }), 'E_1');
  });

  test('`edupass report yearly` prints the same report, as JSON and as CSV', async () => {
    const [op] = operators;
    const report = edu.ok<YearlyReport>(
      await call('GET', `${routes.yearlyReport.path}?year=${YEAR}`, undefined, { token: op?.token }),
    );
    const output: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void output.push(args.join(' ')));
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = server.config.databaseUrl;
    try {
      expect(await runCli(['report', 'yearly', '--year', String(YEAR)])).toBe(0);
      expect(JSON.parse(output.join('\n'))).toEqual(report);
      output.length = 0;
      expect(await runCli(['report', 'yearly', '--year', String(YEAR), '--format', 'csv'])).toBe(0);
      expect(`${output.join('\n')}\n`).toBe(yearlyReportCsv(report));
      expect(output.join('\n')).toContain('5.4,个人信息权利请求,其中：删除,3');
      await expect(runCli(['report', 'yearly', '--year', 'last'])).rejects.toThrow(/--year/);
    } finally {
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
      vi.restoreAllMocks();
    }
  });
});

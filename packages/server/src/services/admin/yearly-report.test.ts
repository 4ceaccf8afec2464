/**
 * The yearly report's counters, over HTTP on a real server: what happened in the year counts in it
 * whatever was erased since — a child who joined, was read by an operator and erased at the guardian's
 * refusal is still among the minors opened, the reads, the people read and the approvals asked; consent
 * decisions and staff reads count as they are made (the same read twice in a day once; a person read
 * twice once among the people read);
 * two accounts made at the same moment count two.
 */

import { routes, type StaffAccessRequest, type YearlyReport } from '@edupass/protocol';
import { type Account, signInOperator } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { findUserById } from '../../store/account/users.ts';

/** Real time, or 5 January next year in the last days of December: every event stays inside one year. */
const start = (() => {
  const now = new Date();
  return now.getUTCMonth() === 11 && now.getUTCDate() > 20
    ? Date.UTC(now.getUTCFullYear() + 1, 0, 5, 4)
    : now.getTime();
})();
const YEAR = new Date(start + 8 * 3_600_000).getUTCFullYear();

const { server, call } = useTestServer({}, { now: () => start });
const edu = eduSteps(server, call);

const { signUpAged } = edu;

let operator: { token: string };

const report = async () =>
  edu.ok<YearlyReport>(
    await call('GET', `${routes.yearlyReport.path}?year=${YEAR}`, undefined, { token: operator.token }),
  );

/** An operator's read of a minor's record, with the reason the console asks for. */
const operatorRead = async (child: Account) =>
  edu.ok(
    await call(
      'GET',
      `${pathOf(routes.getUser.path, { id: child.userId })}?reason=${encodeURIComponent('年度核查')}`,
      undefined,
      {
        token: operator.token,
      },
    ),
  );

/** A guardian's decision on the child's consent link. */
const decide = async (child: Account, guardian: Account, decision: 'consent' | 'refuse') => {
  const { link } = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  );
  edu.ok(await call('POST', routes.consentRequest.path, { link }, { token: guardian.token }));
  edu.ok(
    await call('POST', routes.decideConsent.path, { link, decision, relation: 'mother' }, { token: guardian.token }),
    204,
  );
};

beforeAll(async () => {
  operator = await signInOperator(server);
});

describe('the yearly report counts what happened in the year', () => {
  test('a child who joined and was erased in the year still counts in it', async () => {
    const child = await signUpAged(10);
    await operatorRead(child);
    edu.ok<StaffAccessRequest>(
      await call(
        'POST',
        routes.requestStaffAccess.path,
        { user_id: child.userId, reason: '核实' },
        { token: operator.token },
      ),
    );
    await decide(child, await signUpAged(40), 'refuse');
    expect(await findUserById(server.app.ctx.db, child.userId)).toBeUndefined();

    const { minors, consents, staff_accesses, deletions } = await report();
    expect(minors).toEqual({ accounts_at_year_end: {}, opened: 1 });
    expect(consents).toEqual({ granted: 0, refused: 1, withdrawn: 0 });
    expect(staff_accesses).toEqual({
      reads: { operator: 1 },
      operator_reads_of_minors: 1,
      people_read: 1,
      approvals: { requested: 1, approved: 0, refused: 0 },
    });
    expect(deletions.erased).toEqual({ guardian: 1 });
  });

  test('consent decisions and staff reads count as they are made; a person read twice is one person read', async () => {
    const before = await report();
    const child = await signUpAged(9);
    const guardian = await signUpAged(38);
    await decide(child, guardian, 'consent');
    edu.ok(
      await call('POST', pathOf(routes.withdrawConsent.path, { id: child.userId }), {}, { token: guardian.token }),
      204,
    );
    await operatorRead(child);
    await operatorRead(child);
    const schoolId = await edu.addSchool('计数小学');
    const teacher = await edu.approvedTeacher(schoolId);
    await edu.createPupils(teacher, await edu.createClass(teacher, schoolId), ['甲', '乙']);

    const after = await report();
    expect(after.consents).toEqual({
      granted: before.consents.granted + 1,
      refused: before.consents.refused,
      withdrawn: before.consents.withdrawn + 1,
    });
    // The same read of the same record twice in a day is one row of the access log, and one read here.
    expect(after.staff_accesses.reads).toEqual({
      operator: (before.staff_accesses.reads.operator ?? 0) + 1,
      teacher: (before.staff_accesses.reads.teacher ?? 0) + 2,
    });
    expect(after.staff_accesses.operator_reads_of_minors).toBe(before.staff_accesses.operator_reads_of_minors + 1);
    expect(after.staff_accesses.people_read).toBe(before.staff_accesses.people_read + 3);
    expect(after.minors.opened).toBe(before.minors.opened + 3);
    expect(after.minors.accounts_at_year_end['8_13']).toBe((before.minors.accounts_at_year_end['8_13'] ?? 0) + 3);
  });

  test('two accounts made at the same moment count two', async () => {
    const before = await report();
    await Promise.all([signUpAged(15), signUpAged(14)]);
    const after = await report();
    expect(after.minors.opened).toBe(before.minors.opened + 2);
    expect(after.minors.accounts_at_year_end['14_15']).toBe((before.minors.accounts_at_year_end['14_15'] ?? 0) + 2);
  });
});

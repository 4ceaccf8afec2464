/**
 * The yearly report's counters, over HTTP on a real server: what happened in the year counts in it
 * whatever was erased since — a child who joined, was read by an operator and erased at the guardian's
 * refusal is still among the minors opened, the reads, the people read and the approvals asked; consent
 * decisions and staff reads count as they are made (the same read twice in a day once; a person read
 * twice once among the people read);
 * two accounts made at the same moment count two; and the figures: 10 children and 5 aged
 * 14–17 opened in a year, 4 erased and 3 read, whatever is erased the year after, in JSON and in the
 * filing's CSV. Reads of adults are reads, but never among the people read: the report is of minors.
 */

import { routes, type StaffAccessRequest, type YearlyReport, yearlyReportRows } from '@edupass/protocol';
import { type Account, signInOperator } from '@edupass/test-kit/accounts';
import { runCliOn } from '@edupass/test-kit/cli-run';
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

/** Set to move the server's clock to another year (the last test). */
let at: number | undefined;
const { server, call } = useTestServer({}, { now: () => at ?? start });
const edu = eduSteps(server, call);

const { signUpAged } = edu;

let operator: { token: string };

const report = async (year = YEAR) =>
  edu.ok<YearlyReport>(
    await call('GET', `${routes.yearlyReport.path}?year=${year}`, undefined, { token: operator.token }),
  );

/** An operator deletes the account (erased at once: the tests' grace is 0 days). */
const erase = async (person: Account) =>
  edu.ok(
    await call('DELETE', pathOf(routes.deleteUser.path, { id: person.userId }), undefined, { token: operator.token }),
    204,
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
    expect(minors).toEqual({
      accounts_at_year_end: {},
      opened: 1,
      children_opened: 1,
      erased: 1,
      children_erased: 1,
    });
    expect(consents).toEqual({ granted: 0, refused: 1, withdrawn: 0 });
    expect(staff_accesses).toEqual({
      reads: { operator: 1 },
      operator_reads_of_minors: 1,
      people_read: 1,
      children_read: 1,
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

describe("the issue's figures", () => {
  test('10 children and 5 aged 14–17 opened, 4 erased, 3 read: children 10, minors 15, erased 4, read 3, whatever is erased after', async () => {
    // A year of its own, two on: nothing else in this file happened in it.
    const year = YEAR + 2;
    at = Date.UTC(year, 5, 15, 4);
    try {
      operator = await signInOperator(server);
      const children = await Promise.all(Array.from({ length: 10 }, (_, i) => signUpAged(6 + (i % 7))));
      const teens = await Promise.all(Array.from({ length: 5 }, (_, i) => signUpAged(14 + (i % 3))));
      const [c1, c2, c3, c4] = children as [Account, Account, Account, Account];
      const [t1, t2, t3] = teens as [Account, Account, Account];
      // Staff read three of them, and two adults (a parent, a teacher): only the three are people read.
      const adults = [await signUpAged(40), await signUpAged(33)];
      for (const person of [c1, adults[0], t1, c2, adults[1]]) await operatorRead(person as Account);
      for (const person of [c1, c3, t1, t2]) await erase(person);

      const expected = { children: 10, minors: 15, erased: 4, read: 3 };
      const figures = (r: YearlyReport) => ({
        children: r.minors.children_opened,
        minors: r.minors.opened,
        erased: r.minors.erased,
        read: r.staff_accesses.people_read,
      });
      const inYear = await report(year);
      expect(figures(inYear)).toEqual(expected);
      expect(inYear.minors.children_erased).toBe(2);
      expect(inYear.staff_accesses.children_read).toBe(2);
      expect(inYear.staff_accesses.reads).toEqual({ operator: 5 });

      // The next year two more go: the year's figures stay; the next year's count them.
      at = Date.UTC(year + 1, 2, 1, 4);
      operator = await signInOperator(server);
      await erase(c4);
      await erase(t3);
      expect(figures(await report(year))).toEqual(expected);
      expect((await report(year + 1)).minors.erased).toBe(2);

      // The filing's CSV: the same figures in their fields, labelled in Chinese, or in English.
      const csv = await runCliOn(server, ['report', 'yearly', '--year', String(year), '--csv']);
      expect(csv.code).toBe(0);
      const lines = csv.lines.join('\n').split('\n');
      expect(lines[0]).toBe('序号,栏目,项目,数值');
      expect(lines).toContain('2.1,儿童（不满十四周岁）个人信息,本年新增儿童账号数,10');
      expect(lines).toContain('3.1,未成年人（不满十八周岁，含儿童）个人信息,本年新增未成年人账号数,15');
      expect(lines).toContain('3.3,未成年人（不满十八周岁，含儿童）个人信息,本年删除的未成年人账号数,4');
      expect(lines).toContain('6.5,工作人员访问个人信息,被查阅资料的未成年人人数,3');
      expect(lines).toContain('6.6,工作人员访问个人信息,其中：儿童人数,2');
      expect(lines.length).toBe(1 + yearlyReportRows(inYear, 'zh-CN').length);
      const english = await runCliOn(server, ['report', 'yearly', '--year', String(year), '--csv', '--lang', 'en']);
      expect(english.lines[0]?.split('\n')[0]).toBe('No.,Section,Item,Value');
      expect(english.lines.join('\n')).toContain(
        '3.3,"Minors\' personal information (under 18, children included)",Minors\' accounts erased in the year,4',
      );
    } finally {
      at = undefined;
    }
  });
});

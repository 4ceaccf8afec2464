import { type AnswerOf, routes } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

type School = AnswerOf<'listSchools'>[number];
type TeacherRequest = AnswerOf<'listTeacherRequests'>[number];

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const get = async <T>(path: string) =>
  edu.ok<T>(await call('GET', path, undefined, { token: await edu.operatorToken() }));

/** Asks for pages until one comes short, running `between` after each page; every row once, in order. */
const walk = async <T>(page: (last: T | undefined) => Promise<T[]>, limit: number, between: () => Promise<void>) => {
  const rows: T[] = [];
  for (;;) {
    const next = await page(rows.at(-1));
    rows.push(...next);
    if (next.length < limit) return rows;
    await between();
  }
};

describe("the operator's school list, a page at a time", () => {
  test('pages walk every school once, newest first, while schools are added between pages', async () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7]) await edu.addSchool(`翻页中学${n}`, undefined, n % 2 === 0);
    const before = await get<School[]>(routes.listSchools.path);
    expect(before.map((s) => s.id)).toEqual([...before.map((s) => s.id)].sort((a, b) => b - a));
    let added = 0;
    const walked = await walk<School>(
      (last) => get(`${routes.listSchools.path}?limit=3${last ? `&before=${last.id}` : ''}`),
      3,
      async () => {
        await edu.addSchool(`翻页新校${++added}`);
      },
    );
    expect(added).toBeGreaterThan(0);
    // The walk is the list as it stood when it began: the schools added meanwhile are newer than every page.
    expect(walked).toEqual(before);
    expect(walked.filter((s) => s.name.startsWith('翻页中学')).map((s) => s.agreement !== null)).toEqual([
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    const now = await get<School[]>(routes.listSchools.path);
    expect(now.slice(0, added).map((s) => s.name)).toEqual(
      Array.from({ length: added }, (_, i) => `翻页新校${added - i}`),
    );
  });
});

describe('teacher requests, a page at a time', () => {
  const ask = async (schoolId: number) => {
    const teacher = await signUp(server);
    edu.ok(
      await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: teacher.token }),
      204,
    );
    return teacher.userId;
  };

  test("one school's pages: the waiting ones first, then the approved, each newest first, once each under new requests", async () => {
    const schoolId = await edu.addSchool('翻页审核中学');
    const approved: number[] = [];
    for (let i = 0; i < 4; i++) approved.push((await edu.approvedTeacher(schoolId)).userId);
    const pending: number[] = [];
    for (let i = 0; i < 5; i++) pending.push(await ask(schoolId));
    const path = `${routes.listTeacherRequests.path}?school_id=${schoolId}`;
    const whole = await get<TeacherRequest[]>(path);
    expect(whole.map((r) => r.status)).toEqual([...pending.map(() => 'pending'), ...approved.map(() => 'approved')]);
    expect(new Set(whole.map((r) => r.user_id))).toEqual(new Set([...pending, ...approved]));
    for (const part of ['pending', 'approved']) {
      const times = whole.filter((r) => r.status === part).map((r) => r.created_at);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    const walked = await walk<TeacherRequest>(
      (last) => get(`${path}&limit=2${last ? `&before=${encodeURIComponent(last.cursor ?? '')}` : ''}`),
      2,
      async () => {
        await ask(schoolId);
      },
    );
    expect(walked).toEqual(whole);
  });

  test('every school: a page after each cursor matches the whole list from there; a bad cursor is E_1', async () => {
    const first = await edu.addSchool('翻页一校');
    const second = await edu.addSchool('翻页二校');
    for (const school of [first, second, first, second]) await ask(school);
    await edu.approvedTeacher(second);
    const whole = await get<TeacherRequest[]>(routes.listTeacherRequests.path);
    expect(new Set(whole.map((r) => r.cursor)).size).toBe(whole.length);
    for (const [i, row] of whole.entries()) {
      const after = await get<TeacherRequest[]>(
        `${routes.listTeacherRequests.path}?limit=2&before=${encodeURIComponent(row.cursor ?? '')}`,
      );
      expect(after).toEqual(whole.slice(i + 1, i + 3));
    }
    for (const bad of ['x', 'pending.1.2', 'refused.1.2.3', `pending.${'9'.repeat(20)}.1.1`]) {
      expectError(
        await call('GET', `${routes.listTeacherRequests.path}?before=${bad}`, undefined, {
          token: await edu.operatorToken(),
        }),
        'E_1',
      );
    }
  });
});

/**
 * A school admin's "guardians to confirm" (the test kit's WeCom stand-in as the school's address book):
 * the school's waiting invites paged by id with the child, class, relation and masked phone, each page
 * logged as a read of the children; the invitation sent again at most once in ten minutes and three
 * times a day, however many ask at once; a teacher and another school's admin are refused.
 */
import { routes } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitingInvitesQuery } from '../../../store/edu/family/guardian-invites.ts';
import { INVITE_RESEND_INTERVAL_MS, INVITE_RESENDS_PER_DAY } from './school-invites.ts';

const { server, call } = useTestServer();
const book = schoolBook({
  name: `待确认小学 ${Date.now() % 100_000}`,
  grades: 1,
  classesPerGrade: 2,
  pupilsPerClass: 3,
  mobilePrefix: '1578',
});
let school: Awaited<ReturnType<typeof startSchoolBook>>;

interface Page {
  guardians: {
    id: number;
    child_id: number;
    child_name: string;
    classes: string[];
    relation: string;
    phone: string;
    since: number;
    invited_at: number | null;
  }[];
  next_cursor: number | null;
}

/** An account made an admin of the school. */
const adminOf = async (schoolId: number) => {
  const admin = await signUp(server);
  await server.app.ctx.db
    .insertInto('school_members')
    .values({
      school_id: schoolId,
      user_id: admin.userId,
      role: 'school_admin',
      status: 'approved',
      created_at: Date.now(),
    })
    .execute();
  return admin;
};

beforeAll(async () => {
  school = await startSchoolBook(server, call, 'wecom', book);
  school.edu.ok(await school.confirm((await school.sync()).id));
});
afterAll(async () => {
  await school?.peer.close();
});

const list = (token: string, schoolId: number, query = '') =>
  call<Page>('GET', `${pathOf(routes.guardiansToConfirm.path, { id: schoolId })}${query}`, undefined, { token });

const resend = (token: string, schoolId: number, inviteId: number) =>
  call<{ invited_at: number }>(
    'POST',
    pathOf(routes.resendGuardianInvite.path, { id: schoolId, invite_id: inviteId }),
    {},
    { token },
  );

test('the school admin pages through the waiting invites: child, class, relation, masked phone; each page a logged read', async () => {
  const admin = await adminOf(school.schoolId);
  const all = school.edu.ok<Page>(await list(admin.token, school.schoolId));
  expect(all.guardians).toHaveLength(book.guardians.length);
  expect(all.next_cursor).toBeNull();
  const first = all.guardians[0] as Page['guardians'][number];
  const listed = book.guardians.find((g) => book.pupils.find((p) => p.id === g.pupilId)?.name === first.child_name);
  expect(listed).toBeDefined();
  const pupil = book.pupils.find((p) => p.id === listed?.pupilId);
  expect(first.classes).toEqual([book.classes.find((c) => c.id === pupil?.classId)?.name]);
  expect(first).toMatchObject({ invited_at: null, since: expect.any(Number) });
  for (const g of all.guardians) expect(g.phone).toMatch(/^(157\*{4}\d{4}|)$/);
  // A guardian the book gives no phone for shows none.
  if (book.guardians.some((g) => g.mobile === null)) expect(all.guardians.some((g) => g.phone === '')).toBe(true);
  // Paged by id: two by two, the same invites in the same order.
  const seen: number[] = [];
  let cursor: number | null = 0;
  let pages = 0;
  while (cursor !== null) {
    const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
    const page: Page = school.edu.ok<Page>(await list(admin.token, school.schoolId, query));
    expect(page.guardians.length).toBeLessThanOrEqual(2);
    seen.push(...page.guardians.map((g) => g.id));
    cursor = page.next_cursor;
    pages += 1;
  }
  expect(seen).toEqual(all.guardians.map((g) => g.id));
  expect(pages).toBe(Math.ceil(all.guardians.length / 2));
  // Each listing is a read of the children, in their access logs.
  const reads = await server.app.ctx.db
    .selectFrom('edu_access_log')
    .select(['subject_id', 'purpose'])
    .where('reader_id', '=', admin.userId)
    .where('purpose', '=', 'guardians_to_confirm')
    .execute();
  expect(new Set(reads.map((r) => Number(r.subject_id)))).toEqual(new Set(all.guardians.map((g) => g.child_id)));
});

test('the invitation is sent again once however many ask at once; once per interval and a few a day (AC3_23)', async () => {
  const admin = await adminOf(school.schoolId);
  const { guardians } = school.edu.ok<Page>(await list(admin.token, school.schoolId));
  const invite = guardians.find((g) => g.phone !== '') as Page['guardians'][number];
  const answers = await Promise.all(Array.from({ length: 6 }, () => resend(admin.token, school.schoolId, invite.id)));
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  for (const refused of answers.filter((a) => a.status !== 200)) expectError(refused, 'AC3_23');
  const after = school.edu.ok<Page>(await list(admin.token, school.schoolId));
  expect(after.guardians.find((g) => g.id === invite.id)?.invited_at).toEqual(expect.any(Number));
  // Past the interval, again; until the day's sends are used.
  const { db } = server.app.ctx;
  for (let sent = 1; sent < INVITE_RESENDS_PER_DAY; sent++) {
    await db
      .updateTable('guardian_invites')
      .set({ invited_at: Date.now() - INVITE_RESEND_INTERVAL_MS - 1000 })
      .where('id', '=', invite.id)
      .execute();
    school.edu.ok(await resend(admin.token, school.schoolId, invite.id));
  }
  await db
    .updateTable('guardian_invites')
    .set({ invited_at: Date.now() - INVITE_RESEND_INTERVAL_MS - 1000 })
    .where('id', '=', invite.id)
    .execute();
  const capped = await resend(admin.token, school.schoolId, invite.id);
  expectError(capped, 'AC3_23');
  // The wait named is the day's, not the interval's.
  expect((capped.body as unknown as { error_message: string }).error_message).toMatch(/times today/);
  // A guardian without a phone cannot be sent one.
  const phoneless = guardians.find((g) => g.phone === '');
  if (phoneless) expectError(await resend(admin.token, school.schoolId, phoneless.id), 'AC3_7');
});

test('a teacher of the school and another school’s admin are refused (E_2, as if there were no school)', async () => {
  const teacher = await school.edu.approvedTeacher(school.schoolId);
  expectError(await list(teacher.token, school.schoolId), 'E_2');
  const otherSchool = await school.edu.addSchool();
  const other = await adminOf(otherSchool);
  expectError(await list(other.token, school.schoolId), 'E_2');
  const { guardians } = school.edu.ok<Page>(await list((await adminOf(school.schoolId)).token, school.schoolId));
  const invite = guardians.find((g) => g.phone !== '') as Page['guardians'][number];
  expectError(await resend(other.token, school.schoolId, invite.id), 'E_2');
  // Its own school's path with this school's invite: none there.
  expectError(await resend(other.token, otherSchool, invite.id), 'E_2');
});

describe.runIf(process.env.EDUPASS_TEST_DB === 'postgres')('the listing on PostgreSQL', () => {
  test('a page reads the index of waiting invites by (school, id), never every invite of the school', async () => {
    const { db } = server.app.ctx;
    // 50 schools of 400 invites each, nine in ten confirmed.
    await sql`insert into guardian_invites (source_hash, school_id, child_id, relation, phone, created_at, confirmed_at)
      select 'explain-' || i, 1000000 + i % 50, i, 'mother', null, 0, case when i % 10 = 0 then null else 1 end
      from generate_series(1, 20000) i`.execute(db);
    await sql`analyze guardian_invites`.execute(db);
    const query = waitingInvitesQuery(db, 1000007, 0, 101).compile();
    const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text, text).not.toMatch(/Seq Scan on guardian_invites/);
    expect(text, text).toMatch(/guardian_invites_school_waiting/);
    await db.deleteFrom('guardian_invites').where('source_hash', 'like', 'explain-%').execute();
  });
});

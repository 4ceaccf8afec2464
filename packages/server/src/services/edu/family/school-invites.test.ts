/**
 * Guardians a school's address book lists (the test kit's WeCom stand-in): only the holder of the
 * phone the school recorded sees the invite; a wrong code, someone else's invite and a staff member of
 * the school are refused; of parallel confirmations with the one code exactly one links; the second
 * guardian of a child is a request the first decides.
 */
import { routes } from '@edupass/protocol';
import { expectError, newCodeFor, signUpAgreed } from '@edupass/test-kit/accounts';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, expect, test } from 'vitest';

const { server, call } = useTestServer();
const book = schoolBook({
  name: `邀请小学 ${Date.now() % 100_000}`,
  grades: 1,
  classesPerGrade: 1,
  pupilsPerClass: 3,
  mobilePrefix: '1577',
});
let school: Awaited<ReturnType<typeof startSchoolBook>>;

beforeAll(async () => {
  school = await startSchoolBook(server, call, 'wecom', book);
  school.edu.ok(await school.confirm((await school.sync()).id));
});
afterAll(async () => {
  await school?.peer.close();
});

interface Invites {
  invites: { id: number; child_id: number; child_name: string; school: string; relation: string; phone: string }[];
}

const invitesOf = async (token: string) =>
  school.edu.ok<Invites>(await call('GET', routes.schoolInvites.path, undefined, { token })).invites;

const sendCode = (token: string, id: number) =>
  call('POST', pathOf(routes.schoolInviteCode.path, { id }), {}, { token });

const confirm = (token: string, id: number, captcha: string) =>
  call<{ child_id: number; state: string }>(
    'POST',
    pathOf(routes.confirmSchoolInvite.path, { id }),
    { captcha },
    { token },
  );

const guardiansOf = (pupilIndex: number) => {
  const pupil = book.pupils[pupilIndex] as (typeof book.pupils)[number];
  return { pupil, listed: book.guardians.filter((g) => g.pupilId === pupil.id && g.mobile !== null) };
};

test('only the phone the school recorded sees the invite, and a wrong code or another invite is refused', async () => {
  const { pupil, listed } = guardiansOf(0);
  const father = await signUpAgreed(server, listed[0]?.mobile as string);
  const [invite] = await invitesOf(father.token);
  expect(invite).toMatchObject({ child_name: pupil.name, school: book.name, relation: 'father' });
  expect(invite?.phone).toMatch(/^157\*{4}\d{4}$/);
  const stranger = await signUpAgreed(server);
  expect(await invitesOf(stranger.token)).toEqual([]);
  expectError(await sendCode(stranger.token, invite?.id as number), 'E_2');
  expectError(await confirm(stranger.token, invite?.id as number, '123456'), 'E_2');
  school.edu.ok(await sendCode(father.token, invite?.id as number), 204);
  const code = await newCodeFor(server, father.phone);
  expectError(await confirm(father.token, invite?.id as number, code === '000000' ? '111111' : '000000'), 'AC3_13');
});

test('of parallel confirmations with the one code exactly one links; the second guardian is a request', async () => {
  const { listed } = guardiansOf(1);
  const first = await signUpAgreed(server, listed[0]?.mobile as string);
  const [invite] = await invitesOf(first.token);
  const id = invite?.id as number;
  school.edu.ok(await sendCode(first.token, id), 204);
  const code = await newCodeFor(server, first.phone);
  const answers = await Promise.all([1, 2, 3, 4].map(() => confirm(first.token, id, code)));
  const linked = answers.filter((a) => a.status === 200);
  expect(linked).toHaveLength(1);
  expect(linked[0]?.body.state).toBe('linked');
  // The others find the code spent (AC3_13), or the invite confirmed already (E_2: it waits no more).
  for (const other of answers.filter((a) => a.status !== 200)) {
    expect(['AC3_13', 'E_2']).toContain((other.body as unknown as { error_code: string }).error_code);
  }
  expect(await invitesOf(first.token)).toEqual([]);
  const children = school.edu.ok<{ children: { id: number }[] }>(
    await call('GET', routes.guardianChildren.path, undefined, { token: first.token }),
  ).children;
  expect(children.map((c) => c.id)).toEqual([invite?.child_id]);

  // The pupil's second guardian: the first decides.
  const second = await signUpAgreed(server, listed[1]?.mobile as string);
  const [theirs] = await invitesOf(second.token);
  school.edu.ok(await sendCode(second.token, theirs?.id as number), 204);
  const asked = school.edu.ok<{ state: string }>(
    await confirm(second.token, theirs?.id as number, await newCodeFor(server, second.phone)),
  );
  expect(asked.state).toBe('pending');
});

test('a teacher of the school is no guardian of its pupils', async () => {
  const { listed } = guardiansOf(0);
  const mother = listed[1]?.mobile as string;
  const teacher = await signUpAgreed(server, mother);
  school.edu.ok(
    await call('POST', pathOf(routes.requestTeaching.path, { id: school.schoolId }), {}, { token: teacher.token }),
    204,
  );
  school.edu.ok(
    await call(
      'POST',
      pathOf(routes.approveTeacherByOperator.path, { id: school.schoolId, user_id: teacher.userId }),
      {},
      { token: school.token },
    ),
    204,
  );
  const [invite] = await invitesOf(teacher.token);
  expectError(await sendCode(teacher.token, invite?.id as number), 'E_1');
});

test("a phone the account never proved sees no invite; each listing is a read in the child's log", async () => {
  const { pupil, listed } = guardiansOf(2);
  const recorded = listed[0]?.mobile as string;
  const holder = await signUpAgreed(server);
  const setPhone = (phone_verified: number) =>
    server.app.ctx.db
      .updateTable('users')
      .set({ phone: recorded, phone_verified })
      .where('id', '=', holder.userId)
      .execute();
  // As an operator's import leaves it: the number on the account, never confirmed by a code.
  await setPhone(0);
  expect(await invitesOf(holder.token)).toEqual([]);
  await setPhone(1);
  const [invite] = await invitesOf(holder.token);
  expect(invite?.child_name).toBe(pupil.name);
  await invitesOf(holder.token);
  const reads = await server.app.ctx.db
    .selectFrom('edu_access_log')
    .select(['reader_id', 'reader_role', 'fields', 'purpose'])
    .where('subject_id', '=', invite?.child_id as number)
    .where('purpose', '=', 'guardian_invite')
    .execute();
  // One row for the day's two listings, naming the reader and what was shown.
  expect(reads).toEqual([
    { reader_id: holder.userId, reader_role: 'guardian', fields: 'name,membership', purpose: 'guardian_invite' },
  ]);
});

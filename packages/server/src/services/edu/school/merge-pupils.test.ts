/**
 * One pupil, one account, over HTTP on both databases: a school admin sees a pupil's two accounts and
 * merges them (the kept one takes the classes, the guardian and the cards; the other ends), the rules
 * that refuse a merge (E_19, E_2), two opposite merges at once; and class names unique per school and
 * school year (E_18), also when five teachers open the same class at the same moment.
 */
import {
  type ClassDetail,
  type GuardianChildren,
  type GuardianCode,
  type PupilDuplicates,
  routes,
} from '@edupass/protocol';
import { type Account, expectError, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

/** A school with `admin` as its school admin, and two classes the admin opened. */
const schoolOf = async (admin: Account, name: string) => {
  const { id } = edu.ok<{ id: number }>(
    await call(
      'POST',
      routes.addSchool.path,
      { name, admin_user_id: admin.userId },
      { token: await edu.operatorToken() },
    ),
  );
  return {
    id,
    classA: await edu.createClass(admin, id, '三年级一班'),
    classB: await edu.createClass(admin, id, '三年级二班'),
  };
};

const duplicates = async (token: string, schoolId: number) =>
  call<PupilDuplicates>('GET', pathOf(routes.pupilDuplicates.path, { id: schoolId }), undefined, { token });
const merge = (token: string, schoolId: number, keep: number, end: number) =>
  call<{ kept: number; ended: number }>(
    'POST',
    pathOf(routes.mergePupils.path, { id: schoolId }),
    { keep, end },
    { token },
  );
const pupilsOf = async (token: string, classId: number) =>
  edu
    .ok<ClassDetail>(await edu.classDetail(token, classId))
    .members.filter((m) => m.role === 'pupil')
    .map((m) => m.user_id);
const signInByPassword = (identity: string, password: string) =>
  call('POST', routes.loginByPassword.path, { identity, password, pid: PID }, { headers: TOKEN_SET_HEADERS });

describe('a school admin merges a pupil’s two accounts', () => {
  test('the kept account has both classes, the guardian and the printed cards; the other ends, its sessions with it', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '合并小学');
    const [kept] = await edu.createPupils(admin, school.classA, ['李华']);
    const [twin] = await edu.createPupils(admin, school.classB, ['李华']);
    if (!kept || !twin) throw new Error('no pupils');
    // The second account was in use: a session, a printed card, a guardian linked to it.
    const twinSession = await edu.pupilSession(twin);
    const [card] = decodeCardQrCodes((await edu.cardSheet(admin, school.classB, 'zh-CN', [twin.user_id])).html);
    const { code } = edu.ok<GuardianCode>(
      await call(
        'POST',
        pathOf(routes.pupilGuardianCode.path, { id: school.classB, user_id: twin.user_id }),
        {},
        { token: admin.token },
      ),
    );
    const mother = await edu.signUpAged(38);
    edu.ok(await call('POST', routes.linkChild.path, { code, relation: 'mother' }, { token: mother.token }));

    const listed = edu.ok<PupilDuplicates>(await duplicates(admin.token, school.id));
    expect(listed.groups).toEqual([
      {
        name: '李华',
        reasons: ['same_name'],
        accounts: [kept.user_id, twin.user_id].map((user_id) =>
          expect.objectContaining({ user_id, refused_as_keep: null, refused_as_end: null, own_sign_in: false }),
        ),
      },
    ]);
    expect(listed.groups[0]?.accounts[1]?.classes).toEqual([
      expect.objectContaining({ id: school.classB, name: '三年级二班', grade: 3, school_year: '2026-2027' }),
    ]);

    expect(edu.ok(await merge(admin.token, school.id, kept.user_id, twin.user_id))).toEqual({
      kept: kept.user_id,
      ended: twin.user_id,
    });
    expect(await pupilsOf(admin.token, school.classA)).toEqual([kept.user_id]);
    expect(await pupilsOf(admin.token, school.classB)).toEqual([kept.user_id]);
    const children = edu.ok<GuardianChildren>(
      await call('GET', routes.guardianChildren.path, undefined, { token: mother.token }),
    ).children;
    expect(children.map((c) => c.id)).toEqual([kept.user_id]);
    // The card printed for the ended account opens the kept one.
    const byCard = edu.ok<{ user_info: { id: number } }>(
      await call('POST', routes.signInByBadge.path, { badge: badgeOf(card ?? '') }, { headers: TOKEN_SET_HEADERS }),
    );
    expect(byCard.user_info.id).toBe(kept.user_id);
    // The ended account: its session is over, and signing in to it says so.
    expectError(await call('GET', routes.getProfile.path, undefined, { token: twinSession.token }), 'E_0');
    const refused = await signInByPassword(twin.username, twinSession.password);
    expectError(refused, 'AC3_44');
    expect((refused.body as { error_message: string }).error_message).toMatch(/merged/);
    // Nothing left to merge; the ended account is no pupil of the school any more.
    expect(edu.ok<PupilDuplicates>(await duplicates(admin.token, school.id)).groups).toEqual([]);
    expectError(await merge(admin.token, school.id, kept.user_id, twin.user_id), 'E_2');
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['action', 'target'])
      .where('action', '=', 'edu.pupils.merge')
      .where('target', '=', `user:${kept.user_id}`)
      .execute();
    expect(audit).toHaveLength(1);
  });

  test('refused: the same account, an account with its own phone as the one to end (keeping it works), an adult, a pupil of another school, a caller who is no school admin', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '规则小学');
    const [made] = await edu.createPupils(admin, school.classA, ['张伟']);
    if (!made) throw new Error('no pupil');
    /** A person with their own phone account who joins class B with its join code. */
    const joined = async (years: number) => {
      const person = await edu.signUpAged(years);
      const { join_code } = edu.ok<{ join_code: string }>(
        await call('POST', pathOf(routes.openJoinCode.path, { id: school.classB }), {}, { token: admin.token }),
      );
      edu.ok(await call('POST', routes.joinClass.path, { join_code }, { token: person.token }), 204);
      edu.ok(
        await call(
          'POST',
          pathOf(routes.approveJoin.path, { id: school.classB, user_id: person.userId }),
          {},
          { token: admin.token },
        ),
        204,
      );
      return person;
    };
    const own = await joined(10);
    const adult = await joined(30);

    expectError(await merge(admin.token, school.id, made.user_id, made.user_id), 'E_19');
    const ownEnded = await merge(admin.token, school.id, made.user_id, own.userId);
    expectError(ownEnded, 'E_19');
    expect((ownEnded.body as unknown as { error_message: string }).error_message).toMatch(/keep that one instead/);
    expectError(await merge(admin.token, school.id, adult.userId, made.user_id), 'E_19');
    const elsewhereAdmin = await signUp(server);
    const elsewhere = await schoolOf(elsewhereAdmin, '别的小学');
    const otherAdmin = await signUp(server);
    const [stranger] = await edu.createPupils(elsewhereAdmin, elsewhere.classA, ['张伟']);
    expectError(await merge(admin.token, school.id, made.user_id, stranger?.user_id ?? 0), 'E_2');
    expectError(await merge(otherAdmin.token, school.id, own.userId, made.user_id), 'E_2');
    expectError(await duplicates(otherAdmin.token, school.id), 'E_2');
    // Nothing moved by the refusals; keeping the account with its own phone is the merge that works.
    expect(await pupilsOf(admin.token, school.classA)).toEqual([made.user_id]);
    edu.ok(await merge(admin.token, school.id, own.userId, made.user_id));
    expect(await pupilsOf(admin.token, school.classA)).toEqual([own.userId]);
    expect((await pupilsOf(admin.token, school.classB)).sort()).toEqual([own.userId, adult.userId].sort());
  });

  test('two opposite merges of the same accounts at once: one wins, one account is left with both classes', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '并发小学');
    const [a] = await edu.createPupils(admin, school.classA, ['刘洋']);
    const [b] = await edu.createPupils(admin, school.classB, ['刘洋']);
    if (!a || !b) throw new Error('no pupils');
    const answers = await Promise.all([
      merge(admin.token, school.id, a.user_id, b.user_id),
      merge(admin.token, school.id, b.user_id, a.user_id),
    ]);
    const won = answers.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.find((r) => r.status !== 200);
    expect(lost?.status).toBe(404);
    const survivor = (won[0]?.body as { kept: number } | undefined)?.kept;
    expect(await pupilsOf(admin.token, school.classA)).toEqual([survivor]);
    expect(await pupilsOf(admin.token, school.classB)).toEqual([survivor]);
  });
});

describe('class names, unique per school and school year', () => {
  const open = (teacher: Account, schoolId: number, name: string, school_year = '2026-2027') =>
    call(
      'POST',
      pathOf(routes.createClass.path, { id: schoolId }),
      { name, grade: 3, school_year },
      {
        token: teacher.token,
      },
    );

  test('a second 三年级二班 of the same year is refused (E_18), another year’s is not, nor a renaming into it', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '班名小学');
    const taken = await open(admin, school.id, '三年级二班');
    expectError(taken, 'E_18');
    expect(edu.ok<{ id: number }>(await open(admin, school.id, '三年级二班', '2025-2026')).id).toBeGreaterThan(0);
    // Another school may have its own 三年级二班.
    const other = await schoolOf(await signUp(server), '另一所小学');
    expect(other.classB).toBeGreaterThan(0);
    expectError(
      await call(
        'PATCH',
        pathOf(routes.updateClass.path, { id: school.classA }),
        { name: '三年级二班' },
        {
          token: admin.token,
        },
      ),
      'E_18',
    );
    edu.ok(
      await call(
        'PATCH',
        pathOf(routes.updateClass.path, { id: school.classA }),
        { name: '三年级三班' },
        {
          token: admin.token,
        },
      ),
    );
  });

  test('five teachers opening 四年级一班 at the same moment: one class, four E_18, no error', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '同时小学');
    const teachers = await Promise.all([1, 2, 3, 4, 5].map(() => edu.approvedTeacher(school.id)));
    const answers = await Promise.all(teachers.map((t) => open(t, school.id, '四年级一班')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 200)) expectError(refused, 'E_18');
    const rows = await server.app.ctx.db
      .selectFrom('classes')
      .select('id')
      .where('school_id', '=', school.id)
      .where('name', '=', '四年级一班')
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the list of likely duplicates goes by what an admin would', () => {
  test('names written with other spaces or full-width letters group; a shared birth month comes first; nothing merges by itself', async () => {
    const admin = await signUp(server);
    const school = await schoolOf(admin, '证据小学');
    const inA = await edu.createPupils(admin, school.classA, ['王小明', 'ＷＡＮＧ Ｌｅｉ', '张三', '李四']);
    const inB = await edu.createPupils(admin, school.classB, ['王　小明', 'wang lei', '张三']);
    const id = (list: typeof inA, i: number) => list[i]?.user_id ?? 0;
    // The two 张三 were born in the same month (as a guardian or the pupil answered it).
    await server.app.ctx.db
      .updateTable('users')
      .set({ birth_year_month: '2018-04' })
      .where('id', 'in', [id(inA, 2), id(inB, 2)])
      .execute();

    const { groups } = edu.ok<PupilDuplicates>(await duplicates(admin.token, school.id));
    expect(groups.map((g) => ({ reasons: g.reasons, ids: g.accounts.map((a) => a.user_id).sort() }))).toEqual([
      { reasons: ['same_name', 'same_birth_month'], ids: [id(inA, 2), id(inB, 2)].sort() },
      { reasons: ['name_written_alike'], ids: [id(inA, 0), id(inB, 0)].sort() },
      { reasons: ['name_written_alike'], ids: [id(inA, 1), id(inB, 1)].sort() },
    ]);
    // Each account under its own name (the teacher's full-width space kept as a space), so the admin sees both.
    expect(groups[1]?.accounts.map((a) => a.name).sort()).toEqual(['王 小明', '王小明'].sort());
    // Listed, not merged: every account is still a pupil of its class.
    expect((await pupilsOf(admin.token, school.classA)).sort()).toEqual(inA.map((p) => p.user_id).sort());
    expect((await pupilsOf(admin.token, school.classB)).sort()).toEqual(inB.map((p) => p.user_id).sort());
  });
});

/**
 * A class's grade is one of the product's grade list, never a free number: 1–12 (一年级 to 高三)
 * always, 0 (幼儿园) and 13 (大学/成人) only where the operator allows them (EDU_CLASS_EXTRA_GRADES).
 * Its head teacher (or a school admin) may correct it afterwards, and the school-managed pupils'
 * age band follows, with the consent rules of the new band.
 */
import { type ClassDetail, type EduClass, routes } from '@edupass/protocol';
import { type Account, expectError, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { movableClock } from '@edupass/test-kit/server-clock';
import { describe, expect, test } from 'vitest';
import { sweepOnce } from '../../platform/housekeeping.ts';

const DAY = 86_400_000;

describe('the grade list, on a server that allows no extra grades', () => {
  const { server, call } = useTestServer();
  const edu = eduSteps(server, call);
  const moveClock = movableClock(server);
  const open = (teacher: Account, schoolId: number, grade: unknown) =>
    call(
      'POST',
      pathOf(routes.createClass.path, { id: schoolId }),
      { name: '三年级二班', grade, school_year: '2026-2027' },
      { token: teacher.token },
    );
  const patch = (teacher: Account, classId: number, body: Record<string, unknown>) =>
    call('PATCH', pathOf(routes.updateClass.path, { id: classId }), body, { token: teacher.token });

  test('a grade outside 1–12 is refused with E_1 and says which grades there are', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    // "1" then a 3 typed after it: 13, which meant adult.
    for (const grade of [13, 0, 20, 21, -1, 2.5]) {
      const refused = await open(teacher, schoolId, grade);
      expectError(refused, 'E_1');
      expect(String((refused.body as { error_message: string }).error_message)).toMatch(/grade/);
    }
    const thirteen = await open(teacher, schoolId, 13);
    expect((thirteen.body as { error_message: string }).error_message).toContain('1 to 6 (一年级 to 六年级)');
    const opened = edu.ok<EduClass>(await open(teacher, schoolId, 3));
    expect(opened.grade).toBe(3);
    expectError(await patch(teacher, opened.id, { grade: 13 }), 'E_1');
    expectError(await patch(teacher, opened.id, { grade: 0 }), 'E_1');
    expect(edu.ok<EduClass>(await patch(teacher, opened.id, { grade: 12 })).grade).toBe(12);
    // 高三 has no next grade here: moving up would make its pupils adults.
    expectError(
      await call(
        'POST',
        pathOf(routes.promoteClass.path, { id: opened.id }),
        { school_year: '2027-2028' },
        { token: teacher.token },
      ),
      'E_1',
    );
  });

  test('only the head teacher or a school admin changes the grade; a co-teacher may rename', async () => {
    const schoolId = await edu.addSchool('育英小学');
    const head = await edu.approvedTeacher(schoolId);
    const colleague = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(head, schoolId);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.addClassTeacher.path, { id: classId }),
        { user_id: colleague.userId },
        { token: head.token },
      ),
      204,
    );
    expectError(await patch(colleague, classId, { grade: 4 }), 'E_4');
    expect(edu.ok<EduClass>(await patch(colleague, classId, { name: '三年级(2)班' })).name).toBe('三年级(2)班');
    // The same grade again is no change, so anyone who teaches the class may send it.
    expect(edu.ok<EduClass>(await patch(colleague, classId, { grade: 3 })).grade).toBe(3);
    expect(edu.ok<EduClass>(await patch(head, classId, { grade: 4 })).grade).toBe(4);
  });

  const consentOf = async (token: string) =>
    edu.ok<{ age_band: string | null; consent_state: string | null }>(
      await call('GET', routes.ownConsent.path, undefined, { token }),
    );

  test('a grade change moves the school-managed pupils: under 14 now, consent pending without an agreement', async () => {
    const schoolId = await edu.addSchool('第三小学', undefined, false);
    const head = await edu.approvedTeacher(schoolId);
    const classId = edu.ok<EduClass>(await open(head, schoolId, 10)).id;
    const [pupil] = await edu.createPupils(head, classId, ['王子涵', '李明']);
    if (!pupil) throw new Error('no pupil');
    const { token } = await edu.pupilSession(pupil);
    expect(await consentOf(token)).toEqual({ age_band: '14_15', consent_state: null });
    // A pupil who joined with a personal account keeps the age they gave.
    const joined = await edu.signUpAged(20);
    const { join_code } = edu.ok<{ join_code: string }>(
      await call('POST', pathOf(routes.openJoinCode.path, { id: classId }), {}, { token: head.token }),
    );
    edu.ok(await call('POST', routes.joinClass.path, { join_code }, { token: joined.token }), 204);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.approveJoin.path, { id: classId, user_id: joined.userId }),
        {},
        { token: head.token },
      ),
      204,
    );

    // 高一 was a slip for 三年级: the pupils are 8–13 and wait for a guardian.
    expect(edu.ok<EduClass>(await patch(head, classId, { grade: 3 })).grade).toBe(3);
    expect(await consentOf(token)).toEqual({ age_band: '8_13', consent_state: 'pending' });
    expect(await consentOf(joined.token)).toEqual({ age_band: 'adult', consent_state: null });
    // The class page says who waits, and until when the account is kept waiting.
    const members = (await edu.classDetail(head.token, classId)).body as ClassDetail;
    const shown = (userId: number) => members.members.find((m) => m.user_id === userId);
    expect(shown(pupil.user_id)?.consent).toBe('pending');
    const due = shown(pupil.user_id)?.consent_due_at ?? 0;
    expect(Math.abs(due - (server.app.ctx.now() + server.config.eduConsentPendingDays * DAY))).toBeLessThan(60_000);
    expect(shown(joined.userId)).toMatchObject({ consent: null, consent_due_at: null });
    expect(shown(head.userId)).toMatchObject({ consent: null, consent_due_at: null });
    edu.ok(await call('POST', routes.openConsentLink.path, {}, { token }));

    // Back to 高一: 14 or over, nothing to wait for (the sweep would otherwise delete the account).
    edu.ok<EduClass>(await patch(head, classId, { grade: 10 }));
    expect(await consentOf(token)).toEqual({ age_band: '14_15', consent_state: null });
  });

  test("under the school's agreement a pupil who becomes under 14 starts under the school's consent", async () => {
    const admin = await signUp(server);
    const operator = { token: await edu.operatorToken() };
    const { id: schoolId } = edu.ok<{ id: number }>(
      await call('POST', routes.addSchool.path, { name: '第四小学', admin_user_id: admin.userId }, operator),
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.recordSchoolAgreement.path, { id: schoolId }),
        { signatory: '校长 王老师', signed_on: '2024-09-01' },
        operator,
      ),
    );
    const head = await edu.approvedTeacher(schoolId);
    const classId = edu.ok<EduClass>(await open(head, schoolId, 9)).id;
    const [pupil] = await edu.createPupils(head, classId, ['赵小雨']);
    if (!pupil) throw new Error('no pupil');
    const { token } = await edu.pupilSession(pupil);
    expect(await consentOf(token)).toEqual({ age_band: '14_15', consent_state: null });
    // A school admin may correct the grade too.
    edu.ok<EduClass>(await patch(admin, classId, { grade: 4 }));
    expect(await consentOf(token)).toEqual({ age_band: '8_13', consent_state: 'school' });
    const { members } = (await edu.classDetail(head.token, classId)).body as ClassDetail;
    expect(members.find((m) => m.user_id === pupil.user_id)).toMatchObject({ consent: 'school', consent_due_at: null });
  });
  test('parallel grade changes and pupil creations leave every pupil in the band of the grade the class ends with', async () => {
    const schoolId = await edu.addSchool('第六小学', undefined, false);
    const head = await edu.approvedTeacher(schoolId);
    const classId = edu.ok<EduClass>(await open(head, schoolId, 10)).id;
    const pupils = (await edu.createPupils(head, classId, ['孙一', '孙二', '孙三'])).map((p) => p.user_id);
    const bands = async () =>
      server.app.ctx.db
        .selectFrom('users')
        .select(['id', 'age_band', 'consent_state'])
        .where('id', 'in', pupils)
        .execute();
    for (const [round, grades] of [
      [3, 11, 5, 10],
      [10, 4, 12],
      [6, 9, 2, 11],
    ].entries()) {
      const [created, ...answers] = await Promise.all([
        edu.createPupils(head, classId, [`新生${round}`]),
        ...grades.map((grade) => patch(head, classId, { grade })),
      ]);
      pupils.push(...created.map((p) => p.user_id));
      for (const answer of answers) expect(answer.status).toBe(200);
      const final = edu.ok<{ class: EduClass }>(await edu.classDetail(head.token, classId)).class.grade;
      const band = final + 5 < 8 ? 'under_8' : final + 5 < 14 ? '8_13' : final + 5 < 16 ? '14_15' : '16_17';
      const expected = { age_band: band, consent_state: final + 5 < 14 ? 'pending' : null };
      const rows = await bands();
      expect(rows).toHaveLength(pupils.length);
      for (const row of rows) expect({ grade: final, ...row }).toEqual({ grade: final, id: row.id, ...expected });
    }
  });

  test('a pupil made pending by a grade change waits the full days from the change, not from the account', async () => {
    const schoolId = await edu.addSchool('第五小学', undefined, false);
    const head = await edu.approvedTeacher(schoolId);
    const classId = edu.ok<EduClass>(await open(head, schoolId, 10)).id;
    const [pupil] = await edu.createPupils(head, classId, ['钱多多']);
    if (!pupil) throw new Error('no pupil');
    const exists = async () =>
      (await server.app.ctx.db.selectFrom('users').select('id').where('id', '=', pupil.user_id).execute()).length;
    // The account was made forty days ago; today the grade is corrected to 三年级.
    await server.app.ctx.db
      .updateTable('users')
      .set({ created_at: Date.now() - 40 * DAY })
      .where('id', '=', pupil.user_id)
      .execute();
    edu.ok<EduClass>(await patch(head, classId, { grade: 3 }));
    await sweepOnce(server.app.ctx);
    expect(await exists()).toBe(1);
    // Thirty days after the change, nobody consented: the sweep deletes it, as any pending child.
    moveClock(31 * DAY);
    await sweepOnce(server.app.ctx);
    expect(await exists()).toBe(0);
  });
});

describe('the grade list, on a server whose operator allows kindergarten and adult classes', () => {
  const { server, call } = useTestServer({ eduClassExtraGrades: ['kindergarten', 'adult'] });
  const edu = eduSteps(server, call);

  test('幼儿园 (0) and 大学/成人 (13) are accepted; 14 and over never', async () => {
    const schoolId = await edu.addSchool('成人学校');
    const teacher = await edu.approvedTeacher(schoolId);
    for (const grade of [0, 13]) {
      const opened = edu.ok<EduClass>(
        await call(
          'POST',
          pathOf(routes.createClass.path, { id: schoolId }),
          { name: `班${grade}`, grade, school_year: '2026-2027' },
          { token: teacher.token },
        ),
      );
      expect(opened.grade).toBe(grade);
    }
    expectError(
      await call(
        'POST',
        pathOf(routes.createClass.path, { id: schoolId }),
        { name: '班14', grade: 14, school_year: '2026-2027' },
        { token: teacher.token },
      ),
      'E_1',
    );
    const memberships = edu.ok<{ class_grades: number[] }>(
      await call('GET', routes.eduMemberships.path, undefined, { token: teacher.token }),
    );
    expect(memberships.class_grades).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});

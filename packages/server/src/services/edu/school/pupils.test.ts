import { type EduMemberships, routes } from '@edupass/protocol';
import { bindNewPhone, expectError, nextPhone, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const signInByPassword = (identity: string, password: string) =>
  call<{ auth: { token: { access: { token: string } } } }>(
    'POST',
    routes.loginByPassword.path,
    { identity, password, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );
const signInByBadge = (badge: string) =>
  call<{ auth: { token: { access: { token: string } } }; user_info: { id: number } }>(
    'POST',
    routes.signInByBadge.path,
    { badge },
    { headers: TOKEN_SET_HEADERS },
  );
const profile = (token: string) => call('GET', routes.getProfile.path, undefined, { token });

describe('a teacher gives a class its pupil accounts', () => {
  test('only an approved teacher opens a class; 30 pasted names become 30 pupils who sign in by card and by password', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);

    const preview = edu.ok<{ names: string[]; skipped: unknown[] }>(
      await call(
        'POST',
        pathOf(routes.previewPupils.path, { id: classId }),
        { text: `姓名\n${CHINESE_NAMES.join('\r\n')}\n\n王小明\n` },
        { token: teacher.token },
      ),
    );
    expect(preview.names).toEqual(CHINESE_NAMES);
    expect(preview.skipped).toEqual([{ line: 33, text: '王小明', reason: 'duplicate' }]);

    const pupils = await edu.createPupils(teacher, classId, preview.names);
    expect(pupils).toHaveLength(30);
    expect(new Set(pupils.map((p) => p.username)).size).toBe(30);
    expect(new Set(pupils.map((p) => p.password)).size).toBe(30);
    for (const p of pupils) expect(p.username).toMatch(new RegExp(`^s${schoolId}[a-z][a-z2-9]{4}$`));

    const sheet = await edu.cardSheet(teacher, classId, 'zh-CN');
    expect(sheet.count).toBe(30);
    expect(sheet.html).toContain('初始密码');
    // Chinese sentences follow each other with no space after the full stop; English ones with one.
    expect(sheet.html).toContain('请妥善保管本卡。学生设置自己的密码后');
    expect(sheet.html).not.toMatch(/[。）] /);
    const links = decodeCardQrCodes(sheet.html);
    expect(links).toHaveLength(30);
    for (const link of links) expect(link).toMatch(new RegExp(`^${server.config.publicUrl}/badge#[A-Za-z0-9_-]{32}$`));
    for (const p of pupils) expect(links.join(' ')).not.toContain(p.password);

    const first = pupils[0];
    if (!first) throw new Error('no pupil');
    const byCard = edu.ok<{ user_info: { id: number } }>(await signInByBadge(badgeOf(links[0] as string)));
    expect(byCard.user_info.id).toBe(first.user_id);
    const byPassword = edu.ok<{ auth: { token: { access: { token: string } } } }>(
      await signInByPassword(first.username, first.password),
    );
    const pupilToken = byPassword.auth.token.access.token;
    const me = edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token: pupilToken }));
    expect(me).toMatchObject({ managed_by_school: true, must_change_password: true });
    expect(me.classes).toEqual([expect.objectContaining({ id: classId, role: 'pupil', status: 'active' })]);

    // The English sheet prints new badges: the Chinese sheet's cards stop working.
    const english = await edu.cardSheet(teacher, classId, 'en', [first.user_id]);
    expect(english.html).toContain('Password');
    expect(english.html).toContain('Keep this card safe. The QR code stops working');
    expectError(await signInByBadge(badgeOf(links[0] as string)), 'AC3_2');
    edu.ok(await signInByBadge(badgeOf(decodeCardQrCodes(english.html)[0] as string)));

    // A reset: the old password and the old card fail, the pupil's session ends at once.
    const reset = edu.ok<{ pupils: { password: string }[] }>(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classId }),
        { user_ids: [first.user_id] },
        { token: teacher.token },
      ),
    );
    expect(reset.pupils[0]?.password).not.toBe(first.password);
    expect((await profile(pupilToken)).status).not.toBe(200);
    expectError(await signInByBadge(badgeOf(decodeCardQrCodes(english.html)[0] as string)), 'AC3_2');
    expect((await signInByPassword(first.username, first.password)).status).not.toBe(200);
    const again = edu.ok<{ auth: { token: { access: { token: string } } } }>(
      await signInByPassword(first.username, reset.pupils[0]?.password as string),
    ).auth.token.access.token;

    // The pupil chooses a password: no change is asked any more, and a reprinted card does not show the old one.
    edu.ok(
      await call(
        'PATCH',
        routes.changePasswordKeepingSession.path,
        {
          old_password: reset.pupils[0]?.password,
          password: 'Lantern5821',
          confirm_password: 'Lantern5821',
          end_other_sessions: false,
        },
        { token: again },
      ),
      204,
    );
    const after = edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token: again }));
    expect(after.must_change_password).toBe(false);
    const reprinted = await edu.cardSheet(teacher, classId, 'en', [first.user_id]);
    expect(reprinted.html).not.toContain(reset.pupils[0]?.password as string);
    expect(reprinted.html).toContain('(changed by the pupil)');
  });

  test("a move takes the pupil out of reach of the first class's teacher at once", async () => {
    const schoolId = await edu.addSchool();
    const [teacherA, teacherB] = [await edu.approvedTeacher(schoolId), await edu.approvedTeacher(schoolId)];
    const classA = await edu.createClass(teacherA, schoolId, '一班');
    const classB = await edu.createClass(teacherB, schoolId, '二班');
    const [pupil] = await edu.createPupils(teacherA, classA, ['李雷']);
    if (!pupil) throw new Error('no pupil');
    // Teacher A may not move into a class A does not teach: B's head teacher adds A as co-teacher first.
    expectError(
      await call(
        'POST',
        pathOf(routes.movePupils.path, { id: classA }),
        { user_ids: [pupil.user_id], to_class_id: classB },
        { token: teacherA.token },
      ),
      'E_2',
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.addClassTeacher.path, { id: classB }),
        { user_id: teacherA.userId },
        { token: teacherB.token },
      ),
      204,
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.movePupils.path, { id: classA }),
        { user_ids: [pupil.user_id], to_class_id: classB },
        { token: teacherA.token },
      ),
      204,
    );
    const detailA = edu.ok<{ members: { user_id: number }[] }>(await edu.classDetail(teacherA.token, classA));
    expect(detailA.members.map((m) => m.user_id)).not.toContain(pupil.user_id);
    expectError(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classA }),
        { user_ids: [pupil.user_id] },
        { token: teacherA.token },
      ),
      'E_2',
    );
    // Off class B again, teacher A has no way to the pupil.
    const classC = await edu.createClass(teacherB, schoolId, '三班');
    edu.ok(
      await call(
        'POST',
        pathOf(routes.movePupils.path, { id: classB }),
        { user_ids: [pupil.user_id], to_class_id: classC },
        { token: teacherB.token },
      ),
      204,
    );
    expectError(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classC }),
        { user_ids: [pupil.user_id] },
        { token: teacherA.token },
      ),
      'E_2',
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classC }),
        { user_ids: [pupil.user_id] },
        { token: teacherB.token },
      ),
    );
  });

  test('a CSV saved by Chinese Excel (GBK) reads as the UTF-8 one does', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    // "姓名,性别" and three rows, as Chinese Excel saves a CSV (GBK bytes), and the UTF-8 (BOM) save of it.
    const csv = '姓名,性别\r\n王小明,男\r\n李华,女\r\n张伟,男\r\n';
    const gbk = Buffer.from('d0d5c3fb2cd0d4b1f00d0acdf5d0a1c3f72cc4d00d0ac0eebbaa2cc5ae0d0ad5c5ceb02cc4d00d0a', 'hex');
    for (const bytes of [gbk, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv)])]) {
      const preview = edu.ok<{ names: string[] }>(
        await call(
          'POST',
          pathOf(routes.previewPupils.path, { id: classId }),
          { file_base64: bytes.toString('base64') },
          { token: teacher.token },
        ),
      );
      expect(preview.names).toEqual(CHINESE_NAMES.slice(0, 3));
    }
  });

  test('a teacher must be approved, with a phone; an archived class takes no pupils; a promoted one moves up a grade', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const promoted = edu.ok<{ grade: number; school_year: string }>(
      await call(
        'POST',
        pathOf(routes.promoteClass.path, { id: classId }),
        { school_year: '2027-2028' },
        { token: teacher.token },
      ),
    );
    expect(promoted).toMatchObject({ grade: 4, school_year: '2027-2028' });
    edu.ok(await call('POST', pathOf(routes.archiveClass.path, { id: classId }), {}, { token: teacher.token }), 204);
    expectError(
      await call(
        'POST',
        pathOf(routes.createPupils.path, { id: classId }),
        { names: ['小红'] },
        { token: teacher.token },
      ),
      'E_1',
    );
    // A pupil account cannot ask to teach; nor can an account without a phone.
    const other = await edu.createClass(teacher, schoolId, '新班');
    const [pupil] = await edu.createPupils(teacher, other, ['小刚']);
    if (!pupil) throw new Error('no pupil');
    const pupilToken = (await edu.pupilSession(pupil)).token;
    expectError(
      await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: pupilToken }),
      'AC3_7',
    );
    // Pending teachers open no class.
    const pending = await signUp(server);
    edu.ok(
      await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: pending.token }),
      204,
    );
    expectError(
      await call(
        'POST',
        pathOf(routes.createClass.path, { id: schoolId }),
        { name: 'x', grade: 1, school_year: '2026' },
        { token: pending.token },
      ),
      'E_2',
    );
  });

  /** A pupil of a new class, with the badge of the card the teacher printed, shown to sign in. */
  const cardedPupil = async (name: string) => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, [name]);
    if (!pupil) throw new Error('no pupil');
    const badge = badgeOf(decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html)[0] as string);
    edu.ok(await signInByBadge(badge));
    return { teacher, classId, pupil, badge };
  };

  /** The pupil signs in with their username and password, chooses their own, and binds a phone of their own. */
  const takeWithPhone = async (pupil: { username: string; password: string }) => {
    const { token, password } = await edu.pupilSession(pupil);
    return { token, password, phone: await bindNewPhone(server, token) };
  };

  test("a pupil who adds a personal phone keeps the account; the school can no longer reset it, and the card's badge signs in no more", async () => {
    const { teacher, classId, pupil, badge } = await cardedPupil('韩梅梅');
    const { token, phone, password } = await takeWithPhone(pupil);
    const me = edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token }));
    expect(me.managed_by_school).toBe(false);
    expectError(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classId }),
        { user_ids: [pupil.user_id] },
        { token: teacher.token },
      ),
      'E_2',
    );
    edu.ok(await signInByPassword(phone, password));
    // The card is the school's way in; the account is the pupil's now, and nobody can reprint it.
    expectError(await signInByBadge(badge), 'AC3_2');
    const stored = await server.app.ctx.db
      .selectFrom('sign_in_badges')
      .select('revoked_at')
      .where('user_id', '=', pupil.user_id)
      .execute();
    expect(stored).not.toEqual([]);
    expect(stored.every((row) => row.revoked_at !== null)).toBe(true);
  });

  test("the whole class's cards are the school's accounts' only: a pupil with a phone of their own gets none and stops no one's", async () => {
    const { teacher, classId, pupil } = await cardedPupil('李雷');
    const [second] = await edu.createPupils(teacher, classId, ['王芳']);
    await takeWithPhone(pupil);
    const sheet = await edu.cardSheet(teacher, classId, 'en');
    const badges = decodeCardQrCodes(sheet.html);
    expect(badges).toHaveLength(1);
    expect(sheet.html).toContain(String(second?.username));
    expect(sheet.html).not.toContain(pupil.username);
    expect(edu.ok<{ user_info: { id: number } }>(await signInByBadge(badgeOf(badges[0] as string))).user_info.id).toBe(
      second?.user_id,
    );
    // Named, the pupil's own account is not the teacher's to print.
    expectError(
      await call(
        'POST',
        pathOf(routes.cardSheet.path, { id: classId }),
        { user_ids: [pupil.user_id], lang: 'en' },
        { token: teacher.token },
      ),
      'E_2',
    );
  });

  test('prints and resets of one class at the same moment leave each pupil one live card', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const pupils = await edu.createPupils(teacher, classId, ['赵一', '钱二', '孙三']);
    const ids = pupils.map((p) => Number(p.user_id));
    const reset = () =>
      call('POST', pathOf(routes.resetPupils.path, { id: classId }), { user_ids: ids }, { token: teacher.token });
    const answers = await Promise.all([
      edu.cardSheet(teacher, classId, 'en'),
      edu.cardSheet(teacher, classId, 'zh-CN'),
      reset(),
      edu.cardSheet(teacher, classId, 'en'),
    ]);
    expect((answers[2] as { status: number }).status).toBe(200);
    const live = await server.app.ctx.db
      .selectFrom('sign_in_badges')
      .select('user_id')
      .where('user_id', 'in', ids)
      .where('revoked_at', 'is', null)
      .execute();
    // A reset revokes every card; each print after it leaves its own, revoking the one before.
    expect(live.length).toBeLessThanOrEqual(ids.length);
    expect(new Set(live.map((row) => Number(row.user_id))).size).toBe(live.length);
  });

  test("a card's badge of an account that took a phone some other way (an earlier version, an operator) signs in no more", async () => {
    const { pupil, badge } = await cardedPupil('李雷');
    await server.app.ctx.db.updateTable('users').set({ phone: nextPhone() }).where('id', '=', pupil.user_id).execute();
    expectError(await signInByBadge(badge), 'AC3_2');
  });
});

describe('a class changed with nothing to change', () => {
  test('an empty PATCH answers the class as it is (it answered 500)', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const path = pathOf(routes.updateClass.path, { id: classId });
    const { class: before } = edu.ok<{ class: { name: string; grade: number } }>(
      await call('GET', pathOf(routes.getClass.path, { id: classId }), undefined, { token: teacher.token }),
    );
    const unchanged = edu.ok<{ id: number; name: string; grade: number }>(
      await call('PATCH', path, {}, { token: teacher.token }),
    );
    expect(unchanged).toMatchObject({ id: classId, name: before.name, grade: before.grade });
    // A real change still goes through.
    expect(
      edu.ok<{ name: string }>(await call('PATCH', path, { name: '三年级二班' }, { token: teacher.token })).name,
    ).toBe('三年级二班');
  });
});

describe('a session on the card’s password can only choose a new one', () => {
  test('guardian codes, data copies and sign-in for applications answer E_17 until the pupil chooses a password', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, ['林小雨']);
    if (!pupil) throw new Error('no pupil');
    const badge = badgeOf(decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html)[0] as string);
    const sessions = [
      edu.ok<{ auth: { token: { access: { token: string } } } }>(
        await signInByPassword(pupil.username, pupil.password),
      ),
      edu.ok<{ auth: { token: { access: { token: string } } } }>(await signInByBadge(badge)),
    ];
    for (const session of sessions) {
      const token = session.auth.token.access.token;
      // What the screen for choosing a password needs still answers.
      edu.ok(await call('GET', routes.getProfile.path, undefined, { token }));
      expect(
        edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token }))
          .must_change_password,
      ).toBe(true);
      // Nothing else does.
      expectError(await call('POST', routes.openGuardianCode.path, {}, { token }), 'E_17');
      expectError(await call('POST', routes.requestExport.path, { lang: 'en' }, { token }), 'E_17');
      expectError(await call('GET', routes.listSessions.path, undefined, { token }), 'E_17');
    }
    const token = sessions[0]?.auth.token.access.token as string;
    expect(
      (
        await call(
          'PATCH',
          routes.changePassword.path,
          { old_password: pupil.password, password: 'Lantern5821', confirm_password: 'Lantern5821' },
          { token },
        )
      ).status,
    ).toBe(204);
    // The change ended its sessions (the older route does); signed in again, the account is the pupil's to use.
    const again = edu.ok<{ auth: { token: { access: { token: string } } } }>(
      await signInByPassword(pupil.username, 'Lantern5821'),
    ).auth.token.access.token;
    edu.ok(await call('POST', routes.openGuardianCode.path, {}, { token: again }));
    edu.ok(await call('GET', routes.listSessions.path, undefined, { token: again }));
  });
});

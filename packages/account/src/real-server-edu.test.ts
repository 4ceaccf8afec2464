/**
 * The edu entry against the real server: a teacher's and a pupil's schools, classes and roles, typed,
 * as the account API answers them (pupils created by the teacher through the test kit's edu steps).
 */
import { nextPhone, signUp } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { describe, expect, it } from 'vitest';
import { loginByBadge } from './badge.ts';
import {
  addSchoolTeacher,
  approveTeacher,
  getEduMemberships,
  listOwnCards,
  listPupilDuplicates,
  mergePupils,
  requestTeaching,
  revokeOwnCard,
  searchSchools,
} from './edu.ts';
import * as sdk from './index.ts';
import { changePasswordKeepingSession } from './sessions.ts';
import { PASSWORD, withRealServer } from './testing/real-server.test-setup.ts';

const real = withRealServer({});

/** An approved teacher of the school whom the operator names its school admin. */
const schoolAdminOf = async (edu: ReturnType<typeof eduSteps>, schoolId: number) => {
  const admin = await edu.approvedTeacher(schoolId);
  await real.server.app.ctx.db
    .updateTable('school_members')
    .set({ role: 'school_admin' })
    .where('user_id', '=', admin.userId)
    .execute();
  return admin;
};

describe("a teacher's way in through the SDK", () => {
  it('a teacher finds the school, asks, and is approved; an admin adds another by phone', async () => {
    const edu = eduSteps(real.server, client(real.server.url));
    const tag = `${Date.now() % 100000}`;
    const schoolId = await edu.addSchool(`朝阳区第${tag}中学`);
    const admin = await schoolAdminOf(edu, schoolId);
    const asAdmin = real.newClient();
    await sdk.loginByPassword(asAdmin, { identity: admin.phone, password: PASSWORD });

    const newcomer = await signUp(real.server);
    const asNewcomer = real.newClient();
    await sdk.loginByPassword(asNewcomer, { identity: newcomer.phone, password: PASSWORD });
    const found = await searchSchools(asNewcomer, { q: `${tag}中` });
    expect(found.schools).toEqual([{ id: schoolId, name: `朝阳区第${tag}中学` }]);
    await requestTeaching(asNewcomer, { school_id: schoolId, name: '张老师' });
    expect((await getEduMemberships(asNewcomer)).schools).toEqual([
      { id: schoolId, name: `朝阳区第${tag}中学`, role: 'teacher', status: 'pending' },
    ]);
    await approveTeacher(asAdmin, { school_id: schoolId, user_id: newcomer.userId });
    expect((await getEduMemberships(asNewcomer)).schools[0]?.status).toBe('approved');

    const colleague = await signUp(real.server);
    await addSchoolTeacher(asAdmin, { school_id: schoolId, phone_number: colleague.phone });
    const asColleague = real.newClient();
    await sdk.loginByPassword(asColleague, { identity: colleague.phone, password: PASSWORD });
    expect((await getEduMemberships(asColleague)).schools[0]).toMatchObject({ id: schoolId, status: 'approved' });
    const unknown = await addSchoolTeacher(asAdmin, { school_id: schoolId, phone_number: nextPhone() }).catch(
      (e: unknown) => e,
    );
    expect(unknown).toMatchObject({ name: 'PHONE_UNREGISTERED' });
  });
});

describe("the user's schools and classes through the SDK", () => {
  it('a teacher sees the school and the class they head; a pupil the class, marked as the school’s', async () => {
    const edu = eduSteps(real.server, client(real.server.url));
    const schoolId = await edu.addSchool('启明小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '二年级三班');
    const [pupil] = await edu.createPupils(teacher, classId, ['陈小雨']);

    const asTeacher = real.newClient();
    await sdk.loginByPassword(asTeacher, { identity: teacher.phone, password: PASSWORD });
    const mine = await getEduMemberships(asTeacher);
    expect(mine).toMatchObject({
      schools: [{ id: schoolId, name: '启明小学', role: 'teacher', status: 'approved' }],
      classes: [{ id: classId, school_id: schoolId, name: '二年级三班', role: 'head_teacher', status: 'active' }],
      managed_by_school: false,
    });

    const asPupil = real.newClient();
    await sdk.loginByPassword(asPupil, { identity: pupil?.username ?? '', password: pupil?.password ?? '' });
    const pupils = await getEduMemberships(asPupil);
    expect(pupils).toMatchObject({
      schools: [],
      classes: [{ id: classId, role: 'pupil' }],
      managed_by_school: true,
      must_change_password: true,
    });
    // Signed out, the call is refused as such, typed.
    expect(await getEduMemberships(real.newClient()).catch((e: unknown) => e)).toBeInstanceOf(sdk.AuthError);
  });

  it('a pupil lists their login card and ends it; the card then no longer signs in', async () => {
    const edu = eduSteps(real.server, client(real.server.url));
    const schoolId = await edu.addSchool('启明小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '二年级三班');
    const [pupil] = await edu.createPupils(teacher, classId, ['陈小雨']);

    const asPupil = real.newClient();
    await sdk.loginByPassword(asPupil, { identity: pupil?.username ?? '', password: pupil?.password ?? '' });
    // The school asks for a password of the pupil's own first (PASSWORD_CHANGE_REQUIRED until then).
    const due = await revokeOwnCard(asPupil, { id: 'any' }).catch((e: unknown) => e);
    expect(due).toMatchObject({ name: 'PASSWORD_CHANGE_REQUIRED' });
    const own = 'Lantern5821';
    await changePasswordKeepingSession(asPupil, {
      old_password: pupil?.password ?? '',
      password: own,
      confirm_password: own,
      end_other_sessions: false,
    });
    // The teacher prints the class's cards (again): the pupil's card.
    const badge = badgeOf(decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html)[0] ?? '');
    const listed = await listOwnCards(asPupil);
    expect(listed).toEqual({
      cards: [{ id: expect.any(String), printed_at: expect.any(Number), class_name: '二年级三班' }],
      cards_keep_working: false,
    });
    await revokeOwnCard(asPupil, { id: listed.cards[0]?.id ?? '' });
    await revokeOwnCard(asPupil, { id: listed.cards[0]?.id ?? '' });
    expect((await listOwnCards(asPupil)).cards).toEqual([]);
    const refused = await loginByBadge(real.newClient(), { badge }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(sdk.AuthError);
    // Another's card is not found.
    expect(await revokeOwnCard(asPupil, { id: 'not-a-card-of-mine' }).catch((e: unknown) => e)).toBeInstanceOf(
      sdk.AuthError,
    );
  });
});

describe('one pupil, one account through the SDK', () => {
  it('a school admin lists a pupil’s two accounts and merges them; a refused pair is typed', async () => {
    const edu = eduSteps(real.server, client(real.server.url));
    const schoolId = await edu.addSchool('合并实验小学');
    const admin = await schoolAdminOf(edu, schoolId);
    const classA = await edu.createClass(admin, schoolId, '三年级一班');
    const classB = await edu.createClass(admin, schoolId, '三年级二班');
    const [kept] = await edu.createPupils(admin, classA, ['李华']);
    // The same name as another program wrote it, with a space.
    const [twin] = await edu.createPupils(admin, classB, ['李 华']);
    if (!kept || !twin) throw new Error('no pupils');
    const asAdmin = real.newClient();
    await sdk.loginByPassword(asAdmin, { identity: admin.phone, password: PASSWORD });

    const listed = await listPupilDuplicates(asAdmin, { school_id: schoolId });
    expect(listed.groups).toHaveLength(1);
    expect(listed.groups[0]?.accounts.map((a) => a.user_id).sort()).toEqual([kept.user_id, twin.user_id].sort());
    expect(await mergePupils(asAdmin, { school_id: schoolId, keep: kept.user_id, end: twin.user_id })).toEqual({
      kept: kept.user_id,
      ended: twin.user_id,
    });
    expect((await listPupilDuplicates(asAdmin, { school_id: schoolId })).groups).toEqual([]);
    const again = await mergePupils(asAdmin, { school_id: schoolId, keep: kept.user_id, end: kept.user_id }).catch(
      (e: unknown) => e,
    );
    expect(again).toMatchObject({ name: 'ACCOUNTS_NOT_MERGEABLE' });
    // Not the school's admin: the school is not found for a plain teacher.
    const asTeacher = real.newClient();
    const teacher = await edu.approvedTeacher(schoolId);
    await sdk.loginByPassword(asTeacher, { identity: teacher.phone, password: PASSWORD });
    expect(await listPupilDuplicates(asTeacher, { school_id: schoolId }).catch((e: unknown) => e)).toMatchObject({
      name: 'NOT_FOUND',
    });
  });
});

import { type EduAccessLog, type PupilCredentials, routes } from '@edupass/protocol';
import { expectError, signIn } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

let offset = 0;
const { server, call } = useTestServer({}, { now: () => Date.now() + offset });
const edu = eduSteps(server, call);

/** The pupil's own access log (signed in with the card's password, then their own), oldest first, as (reader, purpose, fields). */
const logOf = async (pupil: PupilCredentials) => {
  const { token } = await edu.pupilSession(pupil);
  const log = edu.ok<EduAccessLog>(await call('GET', routes.eduAccessLog.path, undefined, { token }));
  for (const read of log.reads) expect(read.reader_name).not.toBe('');
  return log.reads.reverse().map((read) => ({ reader: read.reader_id, purpose: read.purpose, fields: read.fields }));
};

describe('who read what: every teacher read of a pupil record writes an access-log row', () => {
  test('creation, the class list, the card sheet and a reset each log the reader, the fields and why; the pupil sees them; refused reads log nothing', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const stranger = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const pupils = await edu.createPupils(teacher, classId, ['王小明', '李华']);
    const [first, second] = pupils;
    if (!first || !second) throw new Error('no pupils');

    edu.ok(await edu.classDetail(teacher.token, classId));
    await edu.cardSheet(teacher, classId, 'en', [first.user_id]);
    const reset = edu.ok<{ pupils: PupilCredentials[] }>(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classId }),
        { user_ids: [second.user_id] },
        { token: teacher.token },
      ),
    ).pupils[0];
    if (!reset) throw new Error('no reset');
    // A teacher of the school who does not teach the class is refused, and so is nothing logged.
    expectError(await edu.classDetail(stranger.token, classId), 'E_2');
    expectError(
      await call(
        'POST',
        pathOf(routes.cardSheet.path, { id: classId }),
        { lang: 'en', user_ids: [first.user_id] },
        { token: stranger.token },
      ),
      'E_2',
    );

    const reader = teacher.userId;
    expect(await logOf(first)).toEqual([
      { reader, purpose: 'pupils_created', fields: ['name', 'username', 'initial_password'] },
      { reader, purpose: 'class_detail', fields: ['name', 'username', 'membership', 'managed_by_school', 'consent'] },
      { reader, purpose: 'card_sheet', fields: ['name', 'class', 'username', 'initial_password'] },
    ]);
    expect(await logOf(reset)).toEqual([
      { reader, purpose: 'pupils_created', fields: ['name', 'username', 'initial_password'] },
      { reader, purpose: 'class_detail', fields: ['name', 'username', 'membership', 'managed_by_school', 'consent'] },
      { reader, purpose: 'pupils_reset', fields: ['name', 'username', 'new_password'] },
    ]);
  });
});

describe('one row per reader, pupil, purpose and day', () => {
  /** The teacher's `purpose` rows about each pupil, as (pupil, count), in the pupils' order. */
  const rowsAbout = async (readerId: number, pupilIds: number[], purpose: string) => {
    const rows = await server.app.ctx.db
      .selectFrom('edu_access_log')
      .select('subject_id')
      .where('reader_id', '=', readerId)
      .where('purpose', '=', purpose)
      .where('subject_id', 'in', pupilIds)
      .execute();
    return pupilIds.map((id) => [id, rows.filter((row) => Number(row.subject_id) === id).length]);
  };

  test('opening the class page twice the same day logs one row per pupil; the next day, one more', async () => {
    offset = 0;
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const pupils = (await edu.createPupils(teacher, classId, ['张一', '张二', '张三'])).map((p) => p.user_id);

    edu.ok(await edu.classDetail(teacher.token, classId));
    edu.ok(await edu.classDetail(teacher.token, classId));
    expect(await rowsAbout(teacher.userId, pupils, 'class_detail')).toEqual(pupils.map((id) => [id, 1]));

    offset = 24 * 3_600_000;
    const nextDay = (await signIn(server, teacher.phone)).access.token;
    edu.ok(await edu.classDetail(nextDay, classId));
    expect(await rowsAbout(teacher.userId, pupils, 'class_detail')).toEqual(pupils.map((id) => [id, 2]));
    offset = 0;
  });
});

describe('a teacher as the school knows them', () => {
  test('the name given when asking to teach and the school name the reads; a teacher who gave none has neither name nor a stranger’s school', async () => {
    const schoolId = await edu.addSchool('星光实验小学');
    const teacher = await edu.approvedTeacher(schoolId);
    // Asking again with a name (an approved teacher stays approved): how the school knows them.
    edu.ok(
      await call(
        'POST',
        pathOf(routes.requestTeaching.path, { id: schoolId }),
        { name: ' 王　老师 ' },
        { token: teacher.token },
      ),
      204,
    );
    const unnamed = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, ['王小明']);
    if (!pupil) throw new Error('no pupil');
    const other = await edu.createClass(unnamed, schoolId, '三年级三班');
    const [theirs] = await edu.createPupils(unnamed, other, ['李华']);
    if (!theirs) throw new Error('no pupil');

    const { token } = await edu.pupilSession(pupil);
    const { reads } = edu.ok<EduAccessLog>(await call('GET', routes.eduAccessLog.path, undefined, { token }));
    const named = reads.find((r) => r.reader_id === teacher.userId);
    expect(named).toMatchObject({
      reader_role: 'teacher',
      reader_staff_name: '王 老师',
      reader_school_name: '星光实验小学',
    });
    const log = edu.ok<EduAccessLog>(
      await call('GET', routes.eduAccessLog.path, undefined, { token: (await edu.pupilSession(theirs)).token }),
    );
    expect(log.reads.find((r) => r.reader_id === unnamed.userId)).toMatchObject({
      reader_staff_name: null,
      reader_school_name: '星光实验小学',
    });
    expectError(
      await call(
        'POST',
        pathOf(routes.requestTeaching.path, { id: schoolId }),
        { name: '王'.repeat(33) },
        { token: teacher.token },
      ),
      'E_1',
    );
  });
});

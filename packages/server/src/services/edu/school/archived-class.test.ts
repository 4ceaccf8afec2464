/**
 * An archived class is read-only: its teacher still sees it, but new passwords and login cards for its
 * pupils are refused with the catalogue's E_1 ("The class is archived."), and nothing of the pupils
 * changes (their passwords and cards keep working as they were).
 */
import { routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

describe('an archived class is read-only', () => {
  test('password resets and card sheets are refused with E_1; the pupils keep their passwords', async () => {
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, ['王小明']);
    if (!pupil) throw new Error('no pupil');
    edu.ok(await call('POST', pathOf(routes.archiveClass.path, { id: classId }), {}, { token: teacher.token }), 204);

    const reset = await call(
      'POST',
      pathOf(routes.resetPupils.path, { id: classId }),
      { user_ids: [pupil.user_id] },
      { token: teacher.token },
    );
    expectError(reset, 'E_1');
    expect(JSON.stringify(reset.body)).toContain('archived');
    const cards = await call(
      'POST',
      pathOf(routes.cardSheet.path, { id: classId }),
      { lang: 'zh-CN' },
      { token: teacher.token },
    );
    expectError(cards, 'E_1');
    expect(JSON.stringify(cards.body)).toContain('archived');

    // The refused reset changed nothing: the card's password still signs in.
    expect((await edu.pupilSession(pupil)).token).toBeTruthy();
    const detail = edu.ok<{ class: { archived: boolean } }>(await edu.classDetail(teacher.token, classId));
    expect(detail.class.archived).toBe(true);
  });
});

import { routes } from '@edupass/protocol';
import { expectError, PID, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';
import { SEALED_INITIAL_PASSWORD } from './initial-passwords.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const signInByPassword = (identity: string, password: string) =>
  call<{ auth: { token: { access: { token: string } } } }>(
    'POST',
    routes.loginByPassword.path,
    { identity, password, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );

const storedPassword = async (userId: number) => {
  const { db } = server.app.ctx;
  const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  const account = await db
    .selectFrom('pupil_accounts')
    .select('initial_password_sealed')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { hash: user.password_hash, sealed: account.initial_password_sealed };
};

const aClassWithPupils = async (names: string[]) => {
  const schoolId = await edu.addSchool();
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  return { teacher, classId, pupils: await edu.createPupils(teacher, classId, names) };
};

describe("a pupil's initial password is kept sealed, not hashed, until the pupil chooses one", () => {
  test('created pupils store no hash; the sealed copy signs in, a wrong guess does not; the chosen password is hashed', async () => {
    const { pupils } = await aClassWithPupils(CHINESE_NAMES.slice(0, 2));
    const [pupil, other] = pupils;
    if (!pupil || !other) throw new Error('no pupils');
    const stored = await storedPassword(pupil.user_id);
    expect(stored.hash).toBe(SEALED_INITIAL_PASSWORD);
    expect(stored.sealed).toMatch(/^v1\./);
    expect(stored.sealed).not.toContain(pupil.password);

    // Another pupil's password, or the marker itself, is a wrong password.
    expectError(await signInByPassword(pupil.username, other.password), 'AC3_2');
    expectError(await signInByPassword(pupil.username, SEALED_INITIAL_PASSWORD), 'AC3_2');
    const token = edu.ok<{ auth: { token: { access: { token: string } } } }>(
      await signInByPassword(pupil.username, pupil.password),
    ).auth.token.access.token;

    edu.ok(
      await call(
        'PATCH',
        routes.changePasswordKeepingSession.path,
        {
          old_password: pupil.password,
          password: 'Lantern5821',
          confirm_password: 'Lantern5821',
          end_other_sessions: false,
        },
        { token },
      ),
      204,
    );
    const chosen = await storedPassword(pupil.user_id);
    expect(chosen.hash).toMatch(/^\$argon2id\$/);
    expect(chosen.sealed).toBeNull();
    expectError(await signInByPassword(pupil.username, pupil.password), 'AC3_2');
    edu.ok(await signInByPassword(pupil.username, 'Lantern5821'));
  });
});

/**
 * The idle time-out of console and teaching sessions (STAFF_IDLE_MINUTES, 15 by default), through the
 * real server with a movable clock: an idle console session is refused and ended, a used one lives on,
 * the last call is written at most once a minute, and pupils' and families' sessions have no time-out;
 * a staff session's memberships name the time-out's minutes (the teaching screens warn before it).
 */
import { type EduMemberships, routes } from '@edupass/protocol';
import { A, expectError, nextPhone, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { movableClock } from '@edupass/test-kit/server-clock';
import { describe, expect, test } from 'vitest';
import { sessionKey } from '../../store/sessions/sessions.ts';
import { accessTokenClaims } from './access-tokens.ts';

const MINUTE = 60_000;
// Access tokens outlive the moves of the clock here, so the refusal is the time-out's, not the token's.
const { server, call } = useTestServer({ staffIdleMinutes: 15, accessTokenTtlSeconds: 3600 });
const edu = eduSteps(server, call);
const moveClock = movableClock(server);

const console_ = (token: string) => call('GET', routes.searchUsers.path, undefined, { token });

const lastActive = async (token: string) => {
  const { sessionId } = await accessTokenClaims(server.app.ctx, token);
  const row = await server.app.ctx.db
    .selectFrom('sessions')
    .select(['last_active_at', 'revoked_at', 'staff'])
    .where('id', '=', sessionKey(sessionId))
    .executeTakeFirstOrThrow();
  return { ...row, last_active_at: row.last_active_at === null ? null : Number(row.last_active_at) };
};

/**
 * A teacher approved at a new school, and a session of theirs: staff from the next sign-in (the school
 * made them a teacher after their sign-up's session began).
 */
const teacherSession = async (schoolName: string) => {
  const school = await edu.addSchool(schoolName);
  const teacher = await edu.approvedTeacher(school);
  const { body } = await call<{ auth: { token: string } }>('POST', `${A}/login`, {
    identity: teacher.phone,
    password: teacher.password,
    pid: 'edupass',
  });
  return { school, teacher, teaching: body.auth.token };
};

describe('the idle time-out of staff sessions', () => {
  test('a console session idle past 15 minutes is refused with E_0 and ended; one in use lives on', async () => {
    const idle = await signInOperator(server, nextPhone());
    const busy = await signInOperator(server, nextPhone());
    expect((await lastActive(idle.token)).staff).toBe(1);
    for (const minutes of [5, 10, 14]) {
      moveClock(minutes * MINUTE);
      expect((await console_(busy.token)).status).toBe(200);
    }
    moveClock(16 * MINUTE);
    const refused = await console_(idle.token);
    expectError(refused, 'E_0');
    expect((refused.body as { error_message: string }).error_message).toBe(
      'Signed out after 15 minutes without activity. Please login.',
    );
    expect((await lastActive(idle.token)).revoked_at).not.toBeNull();
    // Ended for good: coming back within the time-out does not revive it.
    expectError(await call('GET', `${A}/profile`, undefined, { token: idle.token }), 'E_0');
    // The busy one's last call was 2 minutes ago (at 14).
    expect((await console_(busy.token)).status).toBe(200);
  });

  test('the last call is written at most once a minute', async () => {
    const operator = await signInOperator(server, nextPhone());
    const start = server.app.ctx.now();
    moveClock(2 * MINUTE);
    expect((await console_(operator.token)).status).toBe(200);
    const first = (await lastActive(operator.token)).last_active_at;
    expect(first).toBeGreaterThanOrEqual(start + 2 * MINUTE);
    moveClock(2 * MINUTE + 30_000);
    expect((await console_(operator.token)).status).toBe(200);
    expect((await lastActive(operator.token)).last_active_at).toBe(first);
    moveClock(3 * MINUTE + 1000);
    expect((await console_(operator.token)).status).toBe(200);
    expect((await lastActive(operator.token)).last_active_at).toBeGreaterThan(first ?? 0);
  });

  test('parallel calls of an idle session: every one is refused, none revives it', async () => {
    const operator = await signInOperator(server, nextPhone());
    moveClock(20 * MINUTE);
    const answers = await Promise.all(Array.from({ length: 8 }, () => console_(operator.token)));
    for (const answer of answers) expectError(answer, 'E_0');
    expect((await lastActive(operator.token)).revoked_at).not.toBeNull();
  });

  test("a teacher's session has the time-out; a parent's has none", async () => {
    const { teaching } = await teacherSession('空闲小学');
    expect((await lastActive(teaching)).staff).toBe(1);
    const parent = await signUp(server);
    expect((await lastActive(parent.token)).staff).toBe(0);
    moveClock(50 * MINUTE);
    expectError(await call('GET', `${A}/profile`, undefined, { token: teaching }), 'E_0');
    expect((await call('GET', `${A}/profile`, undefined, { token: parent.token })).status).toBe(200);
  });

  test("the teaching screens learn the time-out from a staff session's memberships; a pupil's has none", async () => {
    const { school, teacher, teaching } = await teacherSession('计时小学');
    const memberships = async (token: string) =>
      edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token }));
    expect((await memberships(teaching)).idle_minutes).toBe(15);
    const [pupil] = await edu.createPupils(teacher, await edu.createClass(teacher, school), ['钱小雨']);
    if (!pupil) throw new Error('no pupil');
    const pupilAnswer = await memberships((await edu.pupilSession(pupil)).token);
    expect(pupilAnswer.classes.map((c) => c.role)).toEqual(['pupil']);
    expect('idle_minutes' in pupilAnswer).toBe(false);
  });
});

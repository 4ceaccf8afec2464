/**
 * The staff password policy at its shipped defaults (12 characters, 3 of 4 kinds, 90 days, not one of
 * the last 5), through the real server: refused at set and change, forced at sign-in when expired or
 * below the policy, and never applied to pupils and families.
 */
import { routes } from '@edupass/protocol';
import {
  A,
  type Account,
  expectError,
  nextPhone,
  PASSWORD,
  PID,
  STAFF_PASSWORD,
  signIn,
  signInOperator,
  signUp,
} from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { loadConfig } from '@edupass/test-kit/server';
import { movableClock } from '@edupass/test-kit/server-clock';
import { describe, expect, test } from 'vitest';

const shipped = loadConfig({});
const { server, call } = useTestServer({ staffPassword: shipped.staffPassword });
const edu = eduSteps(server, call);
const moveClock = movableClock(server);
const DAY = 86_400_000;

/** Passwords that meet the shipped policy: 12+ characters of 3 kinds. */
const STRONG = [STAFF_PASSWORD, 'Osprey#31415', 'Heron%161803', 'Falcon!14142', 'Merlin$17320', 'Plover^22360'];

const change = (token: string, old_password: string, password: string) =>
  call('PATCH', `${A}/password`, { old_password, password, confirm_password: password }, { token });

const login = (identity: string, password: string) => call('POST', `${A}/login`, { identity, password, pid: PID });

const adminCall = (token: string) => call('GET', routes.searchUsers.path, undefined, { token });

const newOperator = async (password = STRONG[0] as string) => {
  const phone = nextPhone();
  return { phone, token: (await signInOperator(server, phone, undefined, password)).token };
};

describe('the staff password policy', () => {
  test('shipped defaults are those of a public deployment', () => {
    expect(shipped.staffPassword).toEqual({ minLength: 12, classes: 3, maxAgeDays: 90, history: 5 });
    expect(shipped.staffIdleMinutes).toBe(15);
  });

  test('a weak staff password is refused with E_20 naming the rule; a family account keeps the 6–20 rule', async () => {
    const operator = await newOperator();
    for (const weak of ['Kestrel2718', 'kestrel27182x', 'KESTREL27182']) {
      const answer = await change(operator.token, STRONG[0] as string, weak);
      expectError(answer, 'E_20');
      expect((answer.body as { error_message: string }).error_message).toMatch(
        /at least 12 characters and 3 of the 4 kinds/,
      );
    }
    // A teacher (staff through a school) is held to it too.
    const school = await edu.addSchool('政策小学');
    const teacher = await edu.approvedTeacher(school);
    expectError(await change(teacher.token, PASSWORD, 'kestrel27182'), 'E_20');
    // A parent or pupil account is not staff: the wire's rule alone.
    const family = await signUp(server);
    expect((await change(family.token, PASSWORD, 'kestrel27182')).status).toBe(204);
  });

  test('reuse of one of the last 5 passwords is refused; a sixth one back is allowed', async () => {
    const operator = await newOperator();
    let token = operator.token;
    let current = STRONG[0] as string;
    expectError(await change(token, current, current), 'E_20');
    for (const next of STRONG.slice(1, 5)) {
      expect((await change(token, current, next)).status).toBe(204);
      current = next;
      token = (await signIn(server, operator.phone, current)).access.token;
    }
    // Five passwords so far (STRONG[0..4]): each of them is one of the last 5.
    for (const used of STRONG.slice(0, 5)) {
      const answer = await change(token, current, used);
      expectError(answer, 'E_20');
      expect((answer.body as { error_message: string }).error_message).toMatch(/not one of your last 5/);
    }
    expect((await change(token, current, STRONG[5] as string)).status).toBe(204);
    token = (await signIn(server, operator.phone, STRONG[5] as string)).access.token;
    // STRONG[0] is now the sixth back.
    expect((await change(token, STRONG[5] as string, STRONG[0] as string)).status).toBe(204);
  });

  test('past 90 days a staff member changes the password before anything else', async () => {
    const operator = await newOperator();
    expect((await adminCall(operator.token)).status).toBe(200);
    moveClock(89 * DAY);
    expect((await login(operator.phone, STRONG[0] as string)).body).not.toHaveProperty('password_expired');
    moveClock(91 * DAY);
    const signedIn = await login(operator.phone, STRONG[0] as string);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ password_expired: true });
    const { token } = (signedIn.body as { auth: { token: string } }).auth;
    expectError(await adminCall(token), 'E_21');
    expectError(await call('GET', `${A}/oauths`, undefined, { token }), 'E_21');
    // What the change screen needs still answers.
    expect((await call('GET', routes.operatorSelf.path, undefined, { token })).body).toMatchObject({
      password_expired: true,
    });
    expect((await call('GET', `${A}/profile`, undefined, { token })).status).toBe(200);
    expect((await change(token, STRONG[0] as string, STRONG[1] as string)).status).toBe(204);
    const again = await login(operator.phone, STRONG[1] as string);
    expect(again.body).not.toHaveProperty('password_expired');
    expect((await adminCall((again.body as { auth: { token: string } }).auth.token)).status).toBe(200);
  });

  test('a teacher who signs in with a password below the policy must change it first; a parent is not asked', async () => {
    const school = await edu.addSchool('到期小学');
    const teacher: Account = await edu.approvedTeacher(school);
    const signedIn = await login(teacher.phone, PASSWORD);
    expect(signedIn.body).toMatchObject({ password_expired: true });
    const { token } = (signedIn.body as { auth: { token: string } }).auth;
    // The web client reads this to lead to the password form.
    expect((await call('GET', routes.eduMemberships.path, undefined, { token })).body).toMatchObject({
      must_change_password: true,
    });
    const classes = pathOf(routes.createClass.path, { id: school });
    const body = { name: '一年级一班', grade: 1, school_year: '2026-2027' };
    expectError(await call('POST', classes, body, { token }), 'E_21');
    expect((await change(token, PASSWORD, STRONG[2] as string)).status).toBe(204);
    const fresh = (await signIn(server, teacher.phone, STRONG[2] as string)).access.token;
    expect((await call('POST', classes, body, { token: fresh })).status).toBe(200);

    const parent = await signUp(server);
    expect((await login(parent.phone, PASSWORD)).body).not.toHaveProperty('password_expired');
  });
});

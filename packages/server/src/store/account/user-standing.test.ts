/**
 * A password sign-in's lookup: the account a phone, e-mail address or username names, read with its
 * standing in one statement (users.ts `findUserAndStandingByIdentity`). The account is the one
 * `findUserByIdentity` finds, by any spelling it finds it by; the standing the one `accountStanding`
 * reads on its own, part by part; an identity that names no account finds nothing. Both databases.
 */
import { addSecondFactors, NO_STANDING, newUserRow, useTestStore } from '@edupass/test-kit/test-store';
import { describe, expect, test } from 'vitest';
import { insertClass, putClassMembers } from '../edu/school/classes.ts';
import { insertSchool } from '../edu/school/schools.ts';
import { accountStanding } from './standing.ts';
import { findUserAndStandingByIdentity, findUserByIdentity, insertUser } from './users.ts';

const store = useTestStore();

let serial = 0;
/** An account with a phone, an e-mail address and a username: its id and the three. */
const account = async () => {
  const n = ++serial;
  const identities = {
    phone: `1390000${String(n).padStart(4, '0')}`,
    email: `ada${n}@example.com`,
    username: `ada${n}`,
  };
  const user = await insertUser(store().db, newUserRow({ ...identities, username_key: identities.username }));
  return { userId: Number(user?.id), ...identities };
};

/** Found by `identity` with the standing accountStanding reads; the row is findUserByIdentity's. */
const expectFound = async (identity: string, userId: number) => {
  const found = await findUserAndStandingByIdentity(store().db, identity);
  expect(found?.user.id).toBe(userId);
  expect(found?.user).toEqual(await findUserByIdentity(store().db, identity));
  expect(found?.user).not.toHaveProperty('totp');
  expect(found?.standing).toEqual(await accountStanding(store().db, userId));
  return found?.standing;
};

describe("a password sign-in's account with its standing", () => {
  test('found by phone, e-mail address in any case and username in any case; nothing more: no second factor, not staff', async () => {
    const { userId, phone, email, username } = await account();
    for (const identity of [phone, email, email.toUpperCase(), username, username.toUpperCase()]) {
      expect(await expectFound(identity, userId)).toEqual(NO_STANDING);
    }
  });

  test('an authenticator app, unused recovery codes and a class taught are read as on their own', async () => {
    const { userId, phone, username } = await account();
    const db = store().db;
    await addSecondFactors(db, userId);
    const school = await insertSchool(db, { name: `Standing school ${userId}`, daily_batches: null, created_at: 0 });
    const { id: classId } = await insertClass(db, {
      school_id: Number(school.id),
      name: '三年级一班',
      grade: 3,
      school_year: '2026',
      created_at: 0,
    });
    await putClassMembers(db, [
      { class_id: classId, user_id: userId, role: 'head_teacher', status: 'active', created_at: 0 },
    ]);
    for (const identity of [phone, username]) {
      expect(await expectFound(identity, userId)).toEqual({
        totp: 1,
        passkeys: 0,
        recoveryCodes: 2,
        schoolStaff: true,
      });
    }
  });

  test('an identity that names no account finds nothing', async () => {
    await account();
    for (const identity of ['13999999999', 'nobody@example.com', 'nobody']) {
      expect(await findUserAndStandingByIdentity(store().db, identity)).toBeUndefined();
    }
  });
});

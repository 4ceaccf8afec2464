/**
 * A card's badge read with its account and the account's standing in one statement
 * (store/edu/school/pupils.ts `findUserByLiveBadge`): the standing is the one `accountStanding` reads
 * on its own, part by part (an authenticator app, unused recovery codes, school staff), and a revoked
 * or unknown badge opens nothing. Both databases.
 */
import { addSecondFactors, NO_STANDING, newUserRow, useTestStore } from '@edupass/test-kit/test-store';
import { describe, expect, test } from 'vitest';
import { accountStanding } from '../../account/standing.ts';
import { insertUser } from '../../account/users.ts';
import { findUserByLiveBadge } from './pupils.ts';
import { insertSchool, putSchoolMember } from './schools.ts';

const store = useTestStore();

let serial = 0;
/** A user with a live badge `badge-<n>` (and one revoked, `revoked-<n>`): its id and badge. */
const withBadge = async () => {
  const n = ++serial;
  const user = await insertUser(store().db, newUserRow({ username: `pupil${n}` }));
  const userId = Number(user?.id);
  await store()
    .db.insertInto('sign_in_badges')
    .values([
      { token_hash: `badge-${n}`, user_id: userId, created_at: 0, revoked_at: null, class_id: null },
      { token_hash: `revoked-${n}`, user_id: userId, created_at: 0, revoked_at: 1, class_id: null },
    ])
    .execute();
  return { userId, badge: `badge-${n}`, revoked: `revoked-${n}` };
};

const expectSameStanding = async (badge: string, userId: number) => {
  const found = await findUserByLiveBadge(store().db, badge);
  expect(found?.user.id).toBe(userId);
  expect(found?.user).not.toHaveProperty('totp');
  expect(found?.standing).toEqual(await accountStanding(store().db, userId));
  return found?.standing;
};

describe("a card's badge with its account's standing", () => {
  test('a pupil with nothing more: no second factor, not staff', async () => {
    const { userId, badge } = await withBadge();
    expect(await expectSameStanding(badge, userId)).toEqual(NO_STANDING);
  });

  test('an authenticator app, unused recovery codes and an approved teacher are read as on their own', async () => {
    const { userId, badge } = await withBadge();
    const db = store().db;
    await addSecondFactors(db, userId);
    const school = await insertSchool(db, { name: `Badge school ${userId}`, daily_batches: null, created_at: 0 });
    await putSchoolMember(db, {
      school_id: Number(school.id),
      user_id: userId,
      role: 'teacher',
      status: 'approved',
      created_at: 0,
    });
    expect(await expectSameStanding(badge, userId)).toEqual({
      totp: 1,
      passkeys: 0,
      recoveryCodes: 2,
      schoolStaff: true,
    });
  });

  test('a revoked or unknown badge opens nothing', async () => {
    const { revoked } = await withBadge();
    expect(await findUserByLiveBadge(store().db, revoked)).toBeUndefined();
    expect(await findUserByLiveBadge(store().db, 'no-such-badge')).toBeUndefined();
  });
});

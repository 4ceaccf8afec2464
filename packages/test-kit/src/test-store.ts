/**
 * A migrated store on a fresh test database (SQLite or PostgreSQL, as the test project says) for the
 * test file or describe block that calls this: made in its beforeAll, closed and dropped in its
 * afterAll. The function it returns stands for the store once made.
 */
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { migrate } from '../../server/src/store/migrate.ts';
import type { NewUser } from '../../server/src/store/schema.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export const useTestStore = (): (() => Store) => {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    store = openStore(database.url);
    await migrate(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return () => {
    if (!store) throw new Error('the test store is used before its beforeAll made it');
    return store;
  };
};

/** A bare account's row for `insertUser` (no phone, name or password), with `fields` over it. */
export const newUserRow = (fields: Partial<NewUser> = {}): NewUser => ({
  pid: 'edupass',
  phone: null,
  nickname: null,
  fullname: '',
  qq: '',
  description: '',
  avatar_url: '',
  weak_password: 0,
  role: 'user',
  created_at: 0,
  updated_at: 0,
  ...fields,
});

/** An account's standing with nothing more (store/account/standing.ts): no second factor, not staff. */
export const NO_STANDING = { totp: 0, passkeys: 0, recoveryCodes: 0, schoolStaff: false } as const;

/**
 * A confirmed authenticator app and recovery codes (two unused, one used) for `userId`: its standing
 * then counts an app and two codes.
 */
export const addSecondFactors = async (db: Store['db'], userId: number) => {
  await db
    .insertInto('totp_secrets')
    .values({ user_id: userId, secret_sealed: 'sealed', confirmed_at: 5, last_step: null, created_at: 1 })
    .execute();
  await db
    .insertInto('recovery_codes')
    .values([
      { user_id: userId, code_hash: `a${userId}`, used_at: null },
      { user_id: userId, code_hash: `b${userId}`, used_at: null },
      { user_id: userId, code_hash: `c${userId}`, used_at: 9 },
    ])
    .execute();
};

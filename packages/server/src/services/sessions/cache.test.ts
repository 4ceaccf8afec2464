import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../store/db.ts';
import type { User } from '../../store/schema.ts';
import { findLiveSession, insertSession, sessionKey } from '../../store/sessions/sessions.ts';
import { createSessionCache, type SessionCache } from './cache.ts';

const redisUrl = process.env.EDUPASS_TEST_REDIS_URL;

const user = (id: number, nickname = `user ${id}`) => ({ id, nickname });

const opened: { store: Store; database: TestDatabase }[] = [];

/**
 * A fresh database of ours, and the loader the server gives the cache (the live-session read of
 * store/sessions/sessions.ts), counting its calls. `set` writes what the database holds now: the session's
 * user (created or renamed), or the session ended when given undefined.
 */
const database = async () => {
  // At the newest schema from the migrated template (a copy), not every migration run again per test.
  const testDatabase = await createTestDatabase({ migrated: true });
  const store = openStore(testDatabase.url);
  opened.push({ store, database: testDatabase });
  const now = Date.now();
  let reads = 0;
  return {
    async set(sessionId: string, row: { id: number; nickname: string } | undefined) {
      if (row === undefined) {
        await store.db
          .updateTable('sessions')
          .set({ revoked_at: now })
          .where('id', '=', sessionKey(sessionId))
          .execute();
        return;
      }
      const known = await store.db.selectFrom('users').select('id').where('id', '=', row.id).executeTakeFirst();
      if (known) {
        await store.db.updateTable('users').set({ nickname: row.nickname }).where('id', '=', row.id).execute();
      } else {
        // The columns a test does not name take the schema's defaults.
        await sql`insert into users (id, pid, nickname, created_at, updated_at)
          values (${row.id}, 'edupass', ${row.nickname}, ${now}, ${now})`.execute(store.db);
      }
      const session = await store.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', sessionKey(sessionId))
        .executeTakeFirst();
      if (session) {
        await store.db
          .updateTable('sessions')
          .set({ user_id: row.id, revoked_at: null })
          .where('id', '=', sessionKey(sessionId))
          .execute();
      } else {
        const fields = { method: 'test', ip: '127.0.0.1', user_agent: 'test', created_at: now, revoked_at: null };
        await insertSession(store.db, { id: sessionId, user_id: row.id, ...fields });
      }
    },
    get reads() {
      return reads;
    },
    load: (sessionId: string) => async (): Promise<User | undefined> => {
      reads++;
      return findLiveSession(store.db, sessionId);
    },
  };
};

const caches: SessionCache[] = [];
const make = (options: Parameters<typeof createSessionCache>[0]) => {
  const cache = createSessionCache(options);
  caches.push(cache);
  return cache;
};
afterEach(async () => {
  await Promise.all(caches.splice(0).map((cache) => cache.close()));
  for (const { store, database } of opened.splice(0)) {
    await store.close();
    await database.drop();
  }
});

describe('session cache', () => {
  test('remembers a live session for the TTL, then reads it again', async () => {
    let now = 1_000;
    const cache = make({ ttlMs: 5_000, now: () => now });
    const db = await database();
    await db.set('s1', user(1));
    expect(await cache.read('s1', db.load('s1'))).toMatchObject(user(1));
    expect(await cache.read('s1', db.load('s1'))).toMatchObject(user(1));
    expect(db.reads).toBe(1);
    now += 5_001;
    await db.set('s1', user(1, 'renamed'));
    expect((await cache.read('s1', db.load('s1')))?.nickname).toBe('renamed');
    expect(db.reads).toBe(2);
  });

  test('forgetUser drops every session of that user and no other', async () => {
    const cache = make({ ttlMs: 60_000 });
    const db = await database();
    await db.set('a1', user(1));
    await db.set('a2', user(1));
    await db.set('b1', user(2));
    for (const id of ['a1', 'a2', 'b1']) await cache.read(id, db.load(id));
    expect(db.reads).toBe(3);
    cache.forgetUser(1);
    for (const id of ['a1', 'a2', 'b1']) await cache.read(id, db.load(id));
    expect(db.reads).toBe(5);
  });

  test('forgetSession drops that session only', async () => {
    const cache = make({ ttlMs: 60_000 });
    const db = await database();
    await db.set('a1', user(1));
    await db.set('a2', user(1));
    await cache.read('a1', db.load('a1'));
    await cache.read('a2', db.load('a2'));
    await db.set('a1', undefined);
    cache.forgetSession('a1');
    expect(await cache.read('a1', db.load('a1'))).toBeUndefined();
    expect(await cache.read('a2', db.load('a2'))).toMatchObject(user(1));
    expect(db.reads).toBe(3);
  });

  test('a read that overlaps a forget is not remembered', async () => {
    const cache = make({ ttlMs: 60_000 });
    const db = await database();
    await db.set('s1', user(1, 'before the change'));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const oldRow = await db.load('s1')();
    const pending = cache.read('s1', async () => {
      await released;
      return oldRow;
    });
    // The change commits while the old row is on its way.
    await db.set('s1', user(1, 'after the change'));
    cache.forgetUser(1);
    release();
    expect((await pending)?.nickname).toBe('before the change');
    expect((await cache.read('s1', db.load('s1')))?.nickname).toBe('after the change');
    expect(db.reads).toBe(2);
  });

  test('an ended or unknown session is read every time', async () => {
    const cache = make({ ttlMs: 60_000 });
    const db = await database();
    expect(await cache.read('gone', db.load('gone'))).toBeUndefined();
    expect(await cache.read('gone', db.load('gone'))).toBeUndefined();
    expect(db.reads).toBe(2);
  });

  test('a TTL of 0 reads every time', async () => {
    const cache = make({ ttlMs: 0 });
    const db = await database();
    await db.set('s1', user(1));
    await cache.read('s1', db.load('s1'));
    await cache.read('s1', db.load('s1'));
    expect(db.reads).toBe(2);
  });

  test('holds at most maxEntries sessions, dropping the oldest', async () => {
    const cache = make({ ttlMs: 60_000, maxEntries: 3 });
    const db = await database();
    for (let i = 1; i <= 4; i++) await db.set(`s${i}`, user(i));
    for (let i = 1; i <= 4; i++) await cache.read(`s${i}`, db.load(`s${i}`));
    expect(db.reads).toBe(4);
    await cache.read('s4', db.load('s4'));
    await cache.read('s2', db.load('s2'));
    expect(db.reads).toBe(4);
    await cache.read('s1', db.load('s1'));
    expect(db.reads).toBe(5);
  });

  test('with an unreachable Redis nothing is remembered (no process could tell it of a change)', async () => {
    const cache = make({ ttlMs: 60_000, redisUrl: 'redis://127.0.0.1:1' });
    const db = await database();
    await db.set('s1', user(1));
    await cache.read('s1', db.load('s1'));
    await cache.read('s1', db.load('s1'));
    expect(db.reads).toBe(2);
  });
});

describe.runIf(redisUrl !== undefined)('session cache over Redis', () => {
  const listening = async (cache: SessionCache, db: Awaited<ReturnType<typeof database>>, id: string) => {
    // Remembering starts once the channel is subscribed: wait until a second read is served from memory.
    await expect
      .poll(
        async () => {
          const before = db.reads;
          await cache.read(id, db.load(id));
          await cache.read(id, db.load(id));
          return db.reads - before;
        },
        { message: 'the cache starts remembering' },
      )
      .toBe(1);
  };

  test("one process's forget reaches another process's cache", async () => {
    const first = make({ ttlMs: 60_000, redisUrl });
    const second = make({ ttlMs: 60_000, redisUrl });
    const db = await database();
    const userId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    await db.set('s1', user(userId));
    await listening(first, db, 's1');
    await listening(second, db, 's1');
    const reads = db.reads;
    await db.set('s1', user(userId, 'changed elsewhere'));
    first.forgetUser(userId);
    await expect.poll(async () => (await second.read('s1', db.load('s1')))?.nickname).toBe('changed elsewhere');
    expect(db.reads).toBeGreaterThan(reads);
  });
});

describe('every change forgets', () => {
  const root = join(import.meta.dirname, '..', '..');
  const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('store/'))
    .map((file) => ({ file: relative(root, join(root, file)), text: readFileSync(join(root, file), 'utf8') }));

  test('users and sessions change only through services/account/users.ts and services/sessions/tokens.ts', () => {
    const storeImports = (text: string) =>
      [
        ...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*store\/(?:account\/users|sessions\/sessions)\.ts'/g),
      ].flatMap((m) => (m[1] ?? '').split(',').map((name) => name.trim()));
    const writers = sources.filter(
      ({ text }) =>
        storeImports(text).some((name) => ['updateUser', 'revokeSession', 'revokeUserSessions'].includes(name)) ||
        /updateTable\('(users|sessions)'\)/.test(text),
    );
    expect(sources.length).toBeGreaterThan(50);
    expect(writers.map(({ file }) => file).sort()).toEqual([
      'services/account/users.ts',
      'services/sessions/tokens.ts',
    ]);
  });
});

/**
 * The settings cache (settings-cache.ts): what is remembered, what a write forgets, here at once and
 * in another process over Redis, and without Redis within the TTL.
 */
import { hasRedisServer, type ScratchRedis, startScratchRedis } from '@edupass/test-kit/scratch-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSettingsCache } from './settings-cache.ts';

const counted = () => {
  let reads = 0;
  let value = 'first';
  return {
    load: async () => {
      reads++;
      return value;
    },
    set: (next: string) => {
      value = next;
    },
    reads: () => reads,
  };
};

describe('settings cache, one process', () => {
  it('remembers a setting within the TTL, and reads again after it', async () => {
    let clock = 1_000;
    const cache = createSettingsCache({ ttlMs: 5_000, now: () => clock });
    const source = counted();
    expect(await cache.read('applications', 'app', source.load)).toBe('first');
    source.set('second');
    expect(await cache.read('applications', 'app', source.load)).toBe('first');
    expect(source.reads()).toBe(1);
    clock += 5_001;
    expect(await cache.read('applications', 'app', source.load)).toBe('second');
    expect(source.reads()).toBe(2);
    await cache.close();
  });

  it('a forget of the kind takes effect at once; another kind is kept', async () => {
    const cache = createSettingsCache({ ttlMs: 60_000 });
    const app = counted();
    const hook = counted();
    await cache.read('applications', 'app', app.load);
    await cache.read('webhooks', 'pid', hook.load);
    app.set('secret changed');
    cache.forget('applications');
    expect(await cache.read('applications', 'app', app.load)).toBe('secret changed');
    expect(await cache.read('webhooks', 'pid', hook.load)).toBe('first');
    expect(hook.reads()).toBe(1);
    await cache.close();
  });

  it('a read overlapping a forget is not remembered, and absences never are', async () => {
    const cache = createSettingsCache({ ttlMs: 60_000 });
    let reads = 0;
    await cache.read('products', 'p', async () => {
      reads++;
      cache.forget('products');
      return 'read before the change';
    });
    await cache.read('products', 'p', async () => {
      reads++;
      return 'after';
    });
    expect(reads).toBe(2);
    let misses = 0;
    for (let i = 0; i < 2; i++)
      await cache.read('applications', 'unknown', async () => {
        misses++;
        return undefined;
      });
    expect(misses).toBe(2);
    await cache.close();
  });

  it('hands out frozen rows, so no caller changes another caller’s', async () => {
    const cache = createSettingsCache({ ttlMs: 60_000 });
    const rows = await cache.read('webhooks', 'pid', async () => [{ id: 1, events: 'user.created' }]);
    expect(Object.isFrozen(rows)).toBe(true);
    expect(Object.isFrozen(rows[0])).toBe(true);
    await cache.close();
  });

  it('with a TTL of 0 reads every time', async () => {
    const cache = createSettingsCache({ ttlMs: 0 });
    const source = counted();
    await cache.read('captcha', 'k', source.load);
    await cache.read('captcha', 'k', source.load);
    expect(source.reads()).toBe(2);
    await cache.close();
  });
});

describe.runIf(hasRedisServer())('settings cache, two processes sharing Redis', () => {
  let redis: ScratchRedis;
  beforeAll(async () => {
    redis = await startScratchRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.remove();
  });

  it("one's write is forgotten by the other at once (no TTL wait)", async () => {
    const writer = createSettingsCache({ ttlMs: 60_000, redisUrl: redis.url });
    const other = createSettingsCache({ ttlMs: 60_000, redisUrl: redis.url });
    const source = counted();
    // Nothing is remembered until the channel is listened to: wait until the other remembers.
    await expect
      .poll(async () => {
        await other.read('applications', 'app', source.load);
        const before = source.reads();
        await other.read('applications', 'app', source.load);
        return source.reads() === before;
      })
      .toBe(true);
    source.set('secret changed');
    writer.forget('applications');
    await expect.poll(() => other.read('applications', 'app', source.load)).toBe('secret changed');
    await writer.close();
    await other.close();
  });
});

/**
 * The keys of records sealed at rest: made once and kept sealed under the keyring, generations that
 * all open while the newest seals (a rotation, also two at once), values bound to their column, blind
 * indexes that match equal values and reveal nothing else.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSetting } from '../../store/admin/settings.ts';
import {
  blindIndex,
  loadRecordKeys,
  openRecord,
  rotateRecordKeys,
  sealedGeneration,
  sealRecord,
} from './record-keys.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const PHONE = '+8613912345678';
const NAME = '李小明';

describe('record keys', () => {
  it('are made once, sealed under the keyring, and the same for every process', async () => {
    const { db, keys } = server.app.ctx;
    const [first, second] = await Promise.all([loadRecordKeys(db, keys), loadRecordKeys(db, keys)]);
    expect(first.current).toBe(second.current);
    const sealed = sealRecord(first, 'phone', PHONE);
    expect(openRecord(second, sealed)).toBe(PHONE);

    const stored = (await findSetting(db, 'record-keys')) as string;
    for (const key of first.generations.values()) {
      expect(stored).not.toContain(key.export().toString('base64url'));
    }
    // Another keyring (one reset) does not open them: they are not silently made anew.
    const elsewhere = { ...keys, sealing: createSecretKey(randomBytes(32)) };
    await expect(loadRecordKeys(db, elsewhere)).rejects.toThrow(/do not open/);
  });

  it('seal values that show nothing of the plain one and open only as their column', async () => {
    const { db, keys } = server.app.ctx;
    const recordKeys = await loadRecordKeys(db, keys);
    const sealed = sealRecord(recordKeys, 'fullname', NAME);
    expect(sealed).not.toContain(NAME);
    expect(sealRecord(recordKeys, 'fullname', NAME)).not.toBe(sealed);
    expect(sealedGeneration(sealed)).toBeDefined();
    expect(sealedGeneration(sealed)).toBe(recordKeys.current);
    expect(openRecord(recordKeys, sealed)).toBe(NAME);
    // The envelope names its column and the seal binds it: relabelled, it does not open.
    expect(() => openRecord(recordKeys, sealed.replace('.fullname.', '.display_name.'))).toThrow(/does not open/);

    // Plain values read as they are.
    for (const plain of [PHONE, 'pupil@example.org', NAME, '2015-03', 'r2.d2', 'r1.nickname.v1.x']) {
      expect(sealedGeneration(plain)).toBeUndefined();
      expect(openRecord(recordKeys, plain)).toBe(plain);
    }
  });

  it('rotate without downtime: every generation opens, the newest seals, rotations at once each add one', async () => {
    const { db, keys } = server.app.ctx;
    const before = await loadRecordKeys(db, keys);
    const old = sealRecord(before, 'email', 'pupil@example.org');

    const rotated = await Promise.all([rotateRecordKeys(db, keys), rotateRecordKeys(db, keys)]);
    expect(rotated.map((k) => k.current).sort()).toEqual([before.current + 1, before.current + 2]);

    const after = await loadRecordKeys(db, keys);
    expect(after.current).toBe(before.current + 2);
    expect(openRecord(after, old)).toBe('pupil@example.org');
    const resealed = sealRecord(after, 'email', openRecord(after, old));
    expect(sealedGeneration(resealed)).toBe(after.current);
    expect(openRecord(after, resealed)).toBe('pupil@example.org');
    // A process still on the keys before the rotation cannot open the new generation: it reloads.
    expect(() => openRecord(before, resealed)).toThrow(/generation/);
  });

  it('blind indexes match equal values only, per column, and survive a rotation', async () => {
    const { db, keys } = server.app.ctx;
    const recordKeys = await loadRecordKeys(db, keys);
    const index = blindIndex(recordKeys, 'phone', PHONE);
    expect(blindIndex(recordKeys, 'phone', PHONE)).toBe(index);
    expect(blindIndex(recordKeys, 'phone', '+8613912345679')).not.toBe(index);
    expect(blindIndex(recordKeys, 'email', PHONE)).not.toBe(index);
    expect(index).not.toContain(PHONE.slice(1));
    expect(blindIndex(await rotateRecordKeys(db, keys), 'phone', PHONE)).toBe(index);
  });
});

/** Default nicknames at the store: drawn when a user brings none, drawn again on a clash, never stealing a chosen one. */

import { newUserRow, useTestStore } from '@edupass/test-kit/test-store';
import { describe, expect, test } from 'vitest';
import type { NewUser } from '../schema.ts';
import { DEFAULT_NICKNAME_PATTERN, drawDefaultNickname } from './default-nickname.ts';
import { insertUser } from './users.ts';

const store = useTestStore();

let serial = 0;
const user = (fields: Partial<NewUser> = {}): NewUser =>
  newUserRow({ phone: `139${String(++serial).padStart(8, '0')}`, ...fields });

/** A draw that answers `names` in turn: the test decides what the "random" draws are. */
const draws = (...names: string[]) => {
  const queue = [...names];
  return () => queue.shift() ?? drawDefaultNickname();
};

describe('default nickname', () => {
  test('a user without a nickname gets 用户 and eight digits', async () => {
    const inserted = await insertUser(store().db, user());
    expect(inserted?.nickname).toMatch(DEFAULT_NICKNAME_PATTERN);
    expect(drawDefaultNickname()).toMatch(/^用户\d{8}$/);
  });

  test('a draw that meets a nickname a user chose is drawn again; the chosen one stays theirs', async () => {
    const chosen = await insertUser(store().db, user({ nickname: '用户00000042' }));
    const drawn = await insertUser(store().db, user(), draws('用户00000042', '用户00000043'));
    expect(drawn?.nickname).toBe('用户00000043');
    expect(chosen?.nickname).toBe('用户00000042');
  });

  test('a chosen nickname that is taken is refused, not replaced', async () => {
    await insertUser(store().db, user({ nickname: 'taken-name' }));
    expect(await insertUser(store().db, user({ nickname: 'taken-name' }))).toBeUndefined();
  });

  test('a clash on another column is refused without drawing again', async () => {
    const first = await insertUser(store().db, user());
    let drawn = 0;
    const counting = () => {
      drawn++;
      return drawDefaultNickname();
    };
    expect(await insertUser(store().db, user({ phone: first?.phone ?? null }), counting)).toBeUndefined();
    expect(drawn).toBe(1);
  });

  test('inside a transaction a drawn clash is drawn again (PostgreSQL would abort on a raised violation)', async () => {
    await insertUser(store().db, user({ nickname: '用户00000077' }));
    const inserted = await store()
      .db.transaction()
      .execute((trx) => insertUser(trx, user(), draws('用户00000077', '用户00000078')));
    expect(inserted?.nickname).toBe('用户00000078');
  });

  test('parallel inserts drawing the same names each end with a distinct nickname', async () => {
    // Every insert draws from the same short sequence, so they race for the same names.
    const names = Array.from({ length: 12 }, (_, i) => `用户1000${String(i).padStart(4, '0')}`);
    const results = await Promise.all(Array.from({ length: 8 }, () => insertUser(store().db, user(), draws(...names))));
    const nicknames = results.map((r) => r?.nickname);
    expect(nicknames.every((n) => typeof n === 'string')).toBe(true);
    expect(new Set(nicknames).size).toBe(8);
  });
});

import { describe, expect, it } from 'vitest';
import { avatarInitials } from './avatar-initials.ts';

describe('avatarInitials', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada', 'A'],
    ['小明', '小'],
    ['用户12345678', '78'],
    ['', ''],
  ])('%s → %s', (nickname, shown) => {
    expect(avatarInitials(nickname)).toBe(shown);
  });
});

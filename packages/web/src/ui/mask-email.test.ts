import { describe, expect, it } from 'vitest';
import { maskEmail } from './mask-email.ts';

describe('maskEmail', () => {
  it('keeps the first two characters of a longer name and the domain', () => {
    expect(maskEmail('learner@example.com')).toBe('le****@example.com');
  });
  it('keeps one character of a short name', () => {
    expect(maskEmail('ab@example.com')).toBe('a****@example.com');
    expect(maskEmail('abc@example.com')).toBe('a****@example.com');
  });
  it('no address is empty; something that is not one is masked whole', () => {
    expect(maskEmail('')).toBe('');
    expect(maskEmail('@example.com')).toBe('****');
  });
});

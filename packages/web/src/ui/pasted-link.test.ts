import { describe, expect, it } from 'vitest';
import { linkOfPasted } from './pasted-link.ts';

describe('the link in what a guardian pasted', () => {
  it('takes the part after the # of a whole address, or the part alone', () => {
    expect(linkOfPasted('https://id.school.cn/consent#abc_DEF-123')).toBe('abc_DEF-123');
    expect(linkOfPasted('  abc_DEF-123 ')).toBe('abc_DEF-123');
  });
  it('leaves out the words of the message around it', () => {
    expect(linkOfPasted('妈妈，请帮我同意：https://id.school.cn/consent#abc123 谢谢')).toBe('abc123');
    expect(linkOfPasted('Please agree here https://id.school.cn/consent#abc123\nThanks')).toBe('abc123');
  });
  it('reads an escaped part, and does not fail on a broken escape', () => {
    expect(linkOfPasted('https://x/consent#a%2Bb')).toBe('a+b');
    expect(linkOfPasted('https://x/consent#a%E0b')).toBe('a%E0b');
  });
  it('answers nothing for nothing', () => {
    expect(linkOfPasted('   ')).toBe('');
  });
});

/**
 * The provider's cookie keys sign as keygrip does (a cookie signed before an upgrade still verifies,
 * and one signed now verifies under keygrip after a downgrade) and refuse every other signature.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cookieKeys } from './cookie-keys.ts';

/** keygrip's signature, as its source makes it: HMAC-SHA1, base64 with `/+=` made URL-safe or dropped. */
const keygripSign = (secret: string, data: string) =>
  createHmac('sha1', secret)
    .update(data)
    .digest('base64')
    .replace(/\/|\+|=/g, (x) => ({ '/': '_', '+': '-', '=': '' })[x] ?? x);

const VALUE = '_interaction=NRnmm5Wq1-8u0kQ2vZ-HG; path=/; samesite=lax; httponly';

describe('cookie keys', () => {
  it('sign as keygrip does, byte for byte', () => {
    const keys = cookieKeys(['first secret', 'earlier secret']);
    for (const data of [VALUE, '', '中文 ✓', 'x'.repeat(5000)]) {
      expect(keys.sign(data)).toBe(keygripSign('first secret', data));
    }
  });

  it('know a signature by the current key (0) or an earlier one (1), and nothing else', () => {
    const keys = cookieKeys(['first secret', 'earlier secret']);
    expect(keys.index(VALUE, keygripSign('first secret', VALUE))).toBe(0);
    expect(keys.index(VALUE, keygripSign('earlier secret', VALUE))).toBe(1);
    expect(keys.verify(VALUE, keys.sign(VALUE))).toBe(true);

    const right = keys.sign(VALUE);
    const flipped = `${right.startsWith('A') ? 'B' : 'A'}${right.slice(1)}`; // the first character: all six bits count
    for (const wrong of [
      keygripSign('another secret', VALUE),
      keys.sign(`${VALUE} `),
      flipped,
      right.slice(0, -1),
      `${right}=`,
      '',
    ]) {
      expect(keys.index(VALUE, wrong), wrong).toBe(-1);
      expect(keys.verify(VALUE, wrong)).toBe(false);
    }
    expect(keys.index(VALUE, undefined as unknown as string)).toBe(-1);
  });

  it('need a key', () => {
    expect(() => cookieKeys([])).toThrow(/at least one secret/);
  });
});

import { describe, expect, it } from 'vitest';
import { tencentFallbackTicket } from './tencent.ts';

describe("Tencent's disaster-recovery ticket", () => {
  it('has the documented terror_1001_<appid>_<seconds> form', () => {
    const { tencentTicket, randomStr } = tencentFallbackTicket('190000001', 1_700_000_123_456);
    expect(tencentTicket).toBe('terror_1001_190000001_1700000123');
    expect(randomStr).toMatch(/^@/);
  });
});

/**
 * The keys that sign the provider's cookies (the interaction's, the session's), as Koa's `cookies`
 * module asks for them: `sign`, and `index` (which key signed a value, -1 for none). The signatures are
 * keygrip's, the module's default (HMAC-SHA1, base64url without padding), so a cookie signed before an
 * upgrade still verifies. What differs is the cost: each key is prepared once, and a signature is
 * compared with `timingSafeEqual`, where keygrip compares through tsscmp, which makes two more HMACs
 * under a fresh random key for every comparison (a provider request reads two or three signed cookies:
 * about 5 % of a card sign-in's server CPU went to them, bench/district `BENCH_CPU_PROF`).
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

export interface CookieKeys {
  sign(data: string): string;
  verify(data: string, digest: string): boolean;
  index(data: string, digest: string): number;
}

const signWith = (key: KeyObject, data: string) => createHmac('sha1', key).update(data).digest('base64url');

/** `secrets[0]` signs; any of them verifies (the rest are earlier keys, while their cookies live). */
export const cookieKeys = (secrets: readonly string[]): CookieKeys => {
  if (secrets.length === 0) throw new Error('cookieKeys: at least one secret is needed');
  const keys = secrets.map((secret) => createSecretKey(Buffer.from(secret)));
  const index = (data: string, digest: string) => {
    const given = Buffer.from(String(digest));
    return keys.findIndex((key) => {
      const expected = Buffer.from(signWith(key, data));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  };
  return {
    sign: (data) => signWith(keys[0] as KeyObject, data),
    verify: (data, digest) => index(data, digest) > -1,
    index,
  };
};

/**
 * RFC 6238 TOTP written out for tests, independent of the server's library: base32 (RFC 4648)
 * decoding, HMAC-SHA1 over the 8-byte big-endian step, dynamic truncation (RFC 4226 §5.3), 6 digits.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export const base32Decode = (text: string): Buffer => {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
};

/** The 30-second step of a unix-ms time. */
export const stepAt = (ms: number) => Math.floor(ms / 1000 / 30);

/** The 6-digit code of `secret` (base32) for time step `step`. */
export const totpCode = (secret: string, step: number): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
};

/**
 * A server clock for tests that type app codes: `freshCode` moves it one step on first, so no code
 * is a replay of the one before (the server accepts each step once).
 */
export const steppingClock = () => {
  let offset = 0;
  const now = () => Date.now() + offset;
  const freshCode = (secret: string) => {
    offset += 30_000;
    return totpCode(secret, stepAt(now()));
  };
  return { now, freshCode };
};

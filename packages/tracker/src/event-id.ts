/**
 * Event ids in the UUIDv7 layout: 48 bits of unix milliseconds, a 12-bit sequence, then random bits.
 * They sort by creation order within a page (the sequence orders events of one millisecond, and a
 * clock stepping back, e.g. after the server-time correction, never reorders them) and never repeat,
 * so the server's unique index drops a retried batch without losing a new event.
 */

let lastMs = 0;
let sequence = 0;

// Random bytes are drawn 256 at a time: one getRandomValues call per 32 ids keeps track() cheap.
const POOL_SIZE = 256;
let pool = new Uint8Array(0);
let used = 0;

const randomHex = (count: number): string => {
  if (used + count > pool.length) {
    pool = new Uint8Array(POOL_SIZE);
    const crypto = globalThis.crypto;
    if (crypto?.getRandomValues) crypto.getRandomValues(pool);
    else for (let i = 0; i < pool.length; i++) pool[i] = (Math.random() * 256) | 0;
    used = 0;
  }
  let hex = '';
  for (const end = used + count; used < end; used++) hex += ((pool[used] ?? 0) | 256).toString(16).slice(1);
  return hex;
};

export const eventId = (unixMs: number): string => {
  let ms = Math.max(0, Math.floor(unixMs));
  if (ms > lastMs) sequence = 0;
  else {
    ms = lastMs;
    // 4096 ids in one millisecond: borrow the next one rather than repeat or reorder.
    if (++sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  }
  lastMs = ms;
  const time = ms.toString(16).padStart(12, '0').slice(-12);
  const rand = randomHex(8);
  const variant = ((Number.parseInt(rand[0] ?? '0', 16) & 3) | 8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${(sequence | 0x1000).toString(16).slice(1)}-${variant}${rand.slice(1, 4)}-${rand.slice(4, 16)}`;
};

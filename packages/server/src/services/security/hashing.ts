import { createHash, createHmac, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export const hmac = (key: KeyObject, value: string) => createHmac('sha256', key).update(value).digest('base64url');

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

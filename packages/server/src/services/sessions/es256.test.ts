import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { compactVerify } from 'jose';
import { describe, expect, test } from 'vitest';
import { derFromJose, joseFromDer, signEs256, verifyEs256 } from './es256.ts';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** A DER INTEGER of these bytes. */
const integer = (bytes: number[]) => [0x02, bytes.length, ...bytes];
const der = (...integers: number[][]) => {
  const body = integers.flat();
  return Buffer.from([0x30, body.length, ...body]);
};
const filled = (length: number, value: number) => Array.from({ length }, () => value);

describe('ES256 signatures in JOSE form', () => {
  // About one in 128 signatures has an r or s shorter than 32 bytes, and half have a zero byte
  // before a value with its top bit set: 2,000 signatures meet both forms many times over.
  test('2,000 signatures each verify as ieee-p1363 with node:crypto, and a changed one does not', () => {
    for (let i = 0; i < 2000; i++) {
      const input = `header.payload-${i}`;
      const signature = signEs256(privateKey, input);
      expect(signature.length).toBe(64);
      const check = { key: publicKey, dsaEncoding: 'ieee-p1363' as const };
      expect(verify('sha256', Buffer.from(input), check, signature)).toBe(true);
      signature[i % 64] = (signature[i % 64] ?? 0) ^ 1;
      expect(verify('sha256', Buffer.from(input), check, signature)).toBe(false);
    }
  });

  test('2,000 signatures each check with verifyEs256 and back to the same DER, and a changed one does not', () => {
    for (let i = 0; i < 2000; i++) {
      const input = `header.payload-${i}`;
      const der = sign('sha256', Buffer.from(input), privateKey);
      const signature = joseFromDer(der);
      expect(derFromJose(signature)).toEqual(der);
      expect(verifyEs256(publicKey, input, signature)).toBe(true);
      expect(verifyEs256(publicKey, `${input}!`, signature)).toBe(false);
      signature[i % 64] = (signature[i % 64] ?? 0) ^ 1;
      expect(verifyEs256(publicKey, input, signature)).toBe(false);
    }
    expect(verifyEs256(publicKey, 'header.payload', Buffer.alloc(63))).toBe(false);
    expect(derFromJose(Buffer.alloc(65))).toBeUndefined();
  });

  test('jose verifies a JWS signed this way', async () => {
    const input = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}`;
    const jws = `${input}.${signEs256(privateKey, input).toString('base64url')}`;
    const { payload } = await compactVerify(jws, publicKey);
    expect(JSON.parse(Buffer.from(payload).toString())).toEqual({ sub: '1' });
  });

  test('drops the zero before a value with its top bit set, and pads a short value on the left', () => {
    const r = [0x00, ...filled(32, 0xff)];
    const s = filled(30, 0x11);
    expect([...joseFromDer(der(integer(r), integer(s)))]).toEqual([...filled(32, 0xff), 0, 0, ...filled(30, 0x11)]);
  });

  test('refuses what is not a DER P-256 signature', () => {
    const ok = [filled(32, 0x01), filled(32, 0x02)];
    expect(() => joseFromDer(der(integer(ok[0] ?? []), integer(ok[1] ?? [])))).not.toThrow();
    expect(() => joseFromDer(Buffer.from([0x31, 0]))).toThrow(/not a DER/);
    expect(() => joseFromDer(der(integer(filled(34, 0x01)), integer(ok[1] ?? [])))).toThrow(/not a DER/);
    // 33 bytes without the leading zero.
    expect(() => joseFromDer(der(integer(filled(33, 0x01)), integer(ok[1] ?? [])))).toThrow(/not a DER/);
    expect(() => joseFromDer(der(integer(ok[0] ?? [])))).toThrow(/not a DER/);
    expect(() =>
      joseFromDer(Buffer.concat([der(integer(ok[0] ?? []), integer(ok[1] ?? [])), Buffer.from([0])])),
    ).toThrow(/not a DER/);
  });
});

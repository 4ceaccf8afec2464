import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the enum is `const` and cannot be read at run time under verbatimModuleSyntax. */
const ARGON2ID = 2 as Algorithm;

/** argon2id with OWASP's first recommended parameter set. */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
};

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so a missing user cannot be told apart by timing. */
export const verifyAgainstNothing = async (password: string): Promise<false> => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
};

/** Weak: shorter than 8 characters, or all of one kind (letters, digits or symbols). */
export const isWeakPassword = (password: string): boolean => {
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((kind) => kind.test(password)).length;
  return password.length < 8 || kinds < 2;
};

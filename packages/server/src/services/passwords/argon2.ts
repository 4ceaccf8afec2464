import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { RefusedForNow } from '../../errors.ts';
import { hashTurns } from './hash-turns.ts';

/** Algorithm.Argon2id; the enum is `const` and cannot be read at run time under verbatimModuleSyntax. */
const ARGON2ID = 2 as Algorithm;

/** The cost of an argon2id hash (config `passwordHashing`). */
export interface PasswordHashing {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** argon2id with OWASP's first recommended parameter set: the only cost a deployment uses. */
export const ARGON2_OPTIONS: PasswordHashing = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Hashes waiting for a core that one core's queue holds: about a second of hashes at the shipped cost
 * (10–17 ms each), the longest a person should wait before being told to try again (hash-turns.ts).
 */
export const HASHES_WAITING_PER_CORE = 64;

const cores = availableParallelism();

/**
 * Hashes run one per core the process may use, finished ones are answered four together, and past
 * HASHES_WAITING_PER_CORE × cores waiting a new one is refused with E_10 (hash-turns.ts).
 */
const turns = hashTurns(cores, 4, HASHES_WAITING_PER_CORE * cores);

/** Hashes running and waiting for a core in this process (a metric: a queue here is a sign-in flood). */
export const passwordHashes = () => turns.counts();

/** E_10 now when a password check asked for now would be refused: before anything counts it. */
export const assertHashRoom = () => turns.assertRoom();

export const hashPassword = (password: string, cost: PasswordHashing = ARGON2_OPTIONS) =>
  turns(() => hash(password, { algorithm: ARGON2ID, ...cost }));

export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  assertHashRoom();
  try {
    return await turns(() => verify(passwordHash, password));
  } catch (error) {
    // A full queue is an answer of its own (E_10); a hash that cannot be read is a wrong password.
    if (error instanceof RefusedForNow) throw error;
    return false;
  }
};

/** One hash of a random password per cost, to check a guess against when there is no user. */
const dummyHashes = new WeakMap<PasswordHashing, Promise<string>>();

/** Spends the same time as a real check at this cost, so a missing user cannot be told apart by timing. */
export const verifyAgainstNothing = async (
  password: string,
  cost: PasswordHashing = ARGON2_OPTIONS,
): Promise<false> => {
  let dummy = dummyHashes.get(cost);
  if (dummy === undefined) {
    dummy = hashPassword(randomBytes(16).toString('hex'), cost);
    dummyHashes.set(cost, dummy);
  }
  await verifyPassword(await dummy, password);
  return false;
};

/** Weak: shorter than 8 characters, or all of one kind (letters, digits or symbols). */
export const isWeakPassword = (password: string): boolean => {
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d]/].filter((kind) => kind.test(password)).length;
  return password.length < 8 || kinds < 2;
};

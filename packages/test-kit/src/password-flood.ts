/**
 * A crowd signing in at once, as the server in this process sees it: every core busy with a slow
 * password hash (about a second: no core frees while a request travels, however loaded the machine)
 * and the bounded queue of hashes at the shipped cost full behind them, so the next password check is
 * refused at once with E_10 (503, `Retry-After`). The server must run in this process
 * (`startTestServer`).
 */
import { availableParallelism } from 'node:os';
import {
  ARGON2_OPTIONS,
  HASHES_WAITING_PER_CORE,
  hashPassword,
  passwordHashes,
} from '../../server/src/services/passwords/argon2.ts';

export interface PasswordFlood {
  /** Hashes waiting behind the busy cores. */
  queued: number;
  /** Settles when every hash of the flood is done. */
  drained: Promise<void>;
}

export const floodPasswordChecks = (): PasswordFlood => {
  const cores = availableParallelism();
  const queued = HASHES_WAITING_PER_CORE * cores;
  const slow = { ...ARGON2_OPTIONS, timeCost: 150 };
  const flood = [
    ...Array.from({ length: cores }, () => hashPassword('a long hash', slow)),
    ...Array.from({ length: queued }, () => hashPassword('a flood of sign-ins', ARGON2_OPTIONS)),
  ];
  const waiting = passwordHashes().waiting;
  if (waiting !== queued) throw new Error(`the flood queued ${waiting} hashes, not ${queued}`);
  return { queued, drained: Promise.all(flood).then(() => undefined) };
};

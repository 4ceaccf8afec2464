/**
 * The turns password hashes take on the process's cores.
 *
 * One hash runs per core; the rest wait. Each hash fills 19 MiB of memory, so more hashes than cores
 * would only take turns on the cores, evict each other's memory from the caches, and hold the libuv
 * threads that the log's file writes need.
 *
 * Finished hashes are answered together. A hash sweeps its core's caches, so the request work after
 * it (the session, the token, the answer, the log line) would start cold every time: beside the real
 * hash, a sign-in's own work cost about three times what it costs beside a cheap one. So while other
 * hashes are still running or waiting, a finished one waits for them, up to `together` at a time.
 * Their requests then go on one after another: the first pays for the cold caches, and the others
 * find them warm. With four together, a sign-in's main thread costs about half what it did
 * (bench/server/README.md).
 *
 * The wait costs nothing when nothing else is queued: a lone hash is answered as soon as it
 * finishes. Under a flood, a finished hash waits for at most `together - 1` more. Whether to wait
 * depends only on the queue, never on the answer, so a right and a wrong password wait alike.
 *
 * The queue is bounded: past `maxWaiting` hashes waiting for a core, a new one is refused at once
 * (E_10, 503, with `Retry-After` the seconds the queue ahead of it needs at the hashes' recent pace)
 * rather than left to wait longer than a person would, holding memory and a connection. Everything
 * else the server does keeps its pace meanwhile, and the clients ask again after the seconds given.
 * The refusal comes before the hash, so it checks nothing and counts against no sign-in lock.
 */
import pLimit from 'p-limit';
import { RefusedForNow } from '../../errors.ts';

/** The hash queue is full: what a person is told (the clients show their own calm sentence). */
export const HASHES_BUSY_MESSAGE = 'Many people are signing in right now. Try again in a moment.';

export interface HashTurns {
  /** Runs `hash` in its turn; answers its outcome when it is answered (see above); E_10 when the queue is full. */
  <T>(hash: () => Promise<T>): Promise<T>;
  /** Hashes running now, and hashes waiting for a core. */
  readonly counts: () => { running: number; waiting: number };
  /** E_10 now if a hash asked for now would be refused (a check before anything is counted). */
  readonly assertRoom: () => void;
}

export const hashTurns = (cores: number, together: number, maxWaiting = Number.POSITIVE_INFINITY): HashTurns => {
  const onePerCore = pLimit(cores);
  /** The recent time of one hash, in ms (a moving average; 20 ms until one is measured). */
  let hashMs = 20;
  const assertRoom = () => {
    const waiting = onePerCore.pendingCount;
    if (waiting < maxWaiting) return;
    throw new RefusedForNow('E_10', ((waiting / cores) * hashMs) / 1000, HASHES_BUSY_MESSAGE);
  };
  /** Hashes asked for and not finished yet: running or waiting. */
  let unfinished = 0;
  /** Finished hashes waiting to be answered with the next ones. */
  let held: (() => void)[] = [];

  const answerHeld = () => {
    const answered = held;
    held = [];
    for (const answer of answered) answer();
  };

  const timed = async <T>(hash: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await hash();
    } finally {
      hashMs = hashMs * 0.9 + (performance.now() - started) * 0.1;
    }
  };

  const take = async <T>(hash: () => Promise<T>): Promise<T> => {
    assertRoom();
    unfinished++;
    const [outcome] = await Promise.allSettled([onePerCore(() => timed(hash))]);
    unfinished--;
    // Another hash still unfinished will come here too, and answer this one at the latest.
    if (unfinished > 0 && held.length + 1 < together) await new Promise<void>((answer) => held.push(answer));
    else answerHeld();
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  };

  return Object.assign(take, {
    counts: () => ({ running: onePerCore.activeCount, waiting: onePerCore.pendingCount }),
    assertRoom,
  });
};

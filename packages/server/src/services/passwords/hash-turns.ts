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
 */
import pLimit from 'p-limit';

export interface HashTurns {
  /** Runs `hash` in its turn; answers its outcome when it is answered (see above). */
  <T>(hash: () => Promise<T>): Promise<T>;
  /** Hashes running now, and hashes waiting for a core. */
  readonly counts: () => { running: number; waiting: number };
}

export const hashTurns = (cores: number, together: number): HashTurns => {
  const onePerCore = pLimit(cores);
  /** Hashes asked for and not finished yet: running or waiting. */
  let unfinished = 0;
  /** Finished hashes waiting to be answered with the next ones. */
  let held: (() => void)[] = [];

  const answerHeld = () => {
    const answered = held;
    held = [];
    for (const answer of answered) answer();
  };

  const take = async <T>(hash: () => Promise<T>): Promise<T> => {
    unfinished++;
    const [outcome] = await Promise.allSettled([onePerCore(hash)]);
    unfinished--;
    // Another hash still unfinished will come here too, and answer this one at the latest.
    if (unfinished > 0 && held.length + 1 < together) await new Promise<void>((answer) => held.push(answer));
    else answerHeld();
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  };

  return Object.assign(take, {
    counts: () => ({ running: onePerCore.activeCount, waiting: onePerCore.pendingCount }),
  });
};

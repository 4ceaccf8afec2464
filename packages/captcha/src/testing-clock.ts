/** A manual clock for tests: timers fire only when the test advances time. Not exported from the package. */
import type { Timers } from './globals.ts';

export const createManualClock = () => {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout(fn, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(id) {
      pending.delete(id as number);
    },
    now: () => now,
  };
  /** Moves time forward, firing due timers in order, and lets promise callbacks run in between. */
  const advance = async (ms: number) => {
    const target = now + ms;
    // A macrotask turn lets every pending promise callback run, so timers they set are seen.
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      await settle();
      const due = [...pending.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = target;
    await settle();
  };
  return { timers, advance, pendingCount: () => pending.size };
};

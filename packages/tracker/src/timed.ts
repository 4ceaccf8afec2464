/**
 * Timed events (§4): started, paused (by the caller, or while the tab is hidden), resumed and ended
 * with the time they ran. Hidden-tab time never counts, even for a timer the caller did not pause.
 */
import type { Clock } from './ports.ts';

interface Running {
  /** Milliseconds counted so far. */
  spent: number;
  /** Counting since this time, or not counting. */
  since: number | undefined;
  /** Paused by the caller; a tab turning visible does not resume it. */
  held: boolean;
}

export const createTimedEvents = (clock: Clock, hidden: () => boolean) => {
  const timers = new Map<string, Running>();
  const stopCounting = (timer: Running) => {
    if (timer.since !== undefined) timer.spent += clock.now() - timer.since;
    timer.since = undefined;
  };
  return {
    start(key: string) {
      timers.set(key, { spent: 0, since: hidden() ? undefined : clock.now(), held: false });
    },
    pause(key: string) {
      const timer = timers.get(key);
      if (!timer) return;
      stopCounting(timer);
      timer.held = true;
    },
    resume(key: string) {
      const timer = timers.get(key);
      if (!timer?.held) return;
      timer.held = false;
      if (!hidden()) timer.since = clock.now();
    },
    /** Answers the milliseconds counted, or undefined for a timer never started. */
    end(key: string): number | undefined {
      const timer = timers.get(key);
      if (!timer) return undefined;
      stopCounting(timer);
      timers.delete(key);
      return Math.round(timer.spent);
    },
    /** The tab turned hidden or visible. */
    visibility(isHidden: boolean) {
      for (const timer of timers.values()) {
        if (isHidden) stopCounting(timer);
        else if (!timer.held && timer.since === undefined) timer.since = clock.now();
      }
    },
  };
};

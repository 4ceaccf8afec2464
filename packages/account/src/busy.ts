/**
 * `@edupass/account/busy`: a call asked again by itself while the server is too busy to check a
 * password now (`SERVICE_UNAVAILABLE` with `retry_after`: its queue of password checks is full, a crowd
 * signing in at once). It waits the seconds the server gives (at most 10 a try, spread by up to half
 * so a classroom does not come back in one instant) and tries again, up to 5 tries; `onWaiting` says
 * whether it is waiting, for a calm "many people are signing in" beside the form. One request at a
 * time: the next try starts only after the answer to the last, so a password is never sent twice at
 * once. An entry of its own, outside the main entry's size budget; the web client uses it too.
 *
 *   const session = await retryWhileBusy(() => loginByPassword(client, form), setWaiting);
 */
import { isAuthError } from './errors.ts';

const TRIES = 5;
/** The longest single wait, whatever the server says: a person is waiting. */
const LONGEST_WAIT_S = 10;

/** The seconds a busy answer says to wait (1 where it says none); undefined for any other outcome. */
export const busySeconds = (error: unknown): number | undefined => {
  if (!isAuthError(error) || error.name !== 'SERVICE_UNAVAILABLE') return undefined;
  const seconds = (error.body as { retry_after?: unknown } | undefined)?.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
};

export interface BusyOptions {
  /** Tries in all (5). */
  tries?: number;
  /** How to wait (tests pass their own clock); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `call`, again after the server's wait while it is too busy; the last error is thrown after the tries. */
export const retryWhileBusy = async <T>(
  call: () => Promise<T>,
  onWaiting: (waiting: boolean) => void = () => {},
  { tries = TRIES, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }: BusyOptions = {},
): Promise<T> => {
  try {
    for (let tried = 1; ; tried++) {
      try {
        return await call();
      } catch (error) {
        const seconds = busySeconds(error);
        if (seconds === undefined || tried >= tries) throw error;
        onWaiting(true);
        await sleep(Math.min(seconds, LONGEST_WAIT_S) * (1 + Math.random() * 0.5) * 1000);
      }
    }
  } finally {
    onWaiting(false);
  }
};

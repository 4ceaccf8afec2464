/**
 * A server too busy to check a password now (SERVICE_UNAVAILABLE with `retry_after`: its queue of
 * password checks is full, a crowd signing in at once) is asked again by itself after the seconds it
 * gives, a little spread so a classroom does not come back in one instant; the form meanwhile says
 * calmly that many people are signing in. One request at a time: the next try starts only after the
 * answer to the last, so a password is never sent twice at once. After a few tries the error shows,
 * with its own retry.
 */
import { isAuthError } from '@edupass/account';
import { retryAfterOf } from './code-wait.ts';

const TRIES = 5;
/** The longest single wait, whatever the server says: a person is waiting. */
const LONGEST_WAIT_S = 10;

const busySeconds = (error: unknown): number | undefined =>
  isAuthError(error) && error.name === 'SERVICE_UNAVAILABLE' ? (retryAfterOf(error) ?? 1) : undefined;

/** Runs `call`, again after the server's wait while it is too busy; `onWaiting` says whether the form is waiting for that. */
export const retryWhileBusy = async <T>(call: () => Promise<T>, onWaiting: (waiting: boolean) => void): Promise<T> => {
  try {
    for (let tried = 1; ; tried++) {
      try {
        return await call();
      } catch (error) {
        const seconds = busySeconds(error);
        if (seconds === undefined || tried >= TRIES) throw error;
        onWaiting(true);
        const wait = Math.min(seconds, LONGEST_WAIT_S) * (1 + Math.random() * 0.5);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
    }
  } finally {
    onWaiting(false);
  }
};

/**
 * When the next code may be asked for, per purpose and address, kept in sessionStorage so a reload
 * does not forget the countdown (and then meet "too often" with no seconds). The server's refusals say
 * the seconds left (`retry_after`), which replace the client's guess. A sign-in lock's end is kept
 * the same way (sign-in-lock.tsx).
 */
import { isAuthError } from '@edupass/account';
import { useCallback, useEffect, useState } from 'react';

const PREFIX = 'edupass.code-wait:';

/** The storage key of sends for `scene` to `target`. */
export const codeWaitKey = (scene: string, target: string) => `${scene}:${target}`;

/** The time (ms since epoch) before which no code may be asked for; 0 when none was ever asked. */
export const readWaitUntil = (key: string): number => {
  try {
    return Number(sessionStorage.getItem(PREFIX + key)) || 0;
  } catch {
    return 0;
  }
};

/** Said on `window` when a wait is kept, so every countdown of that key (useStoredWait) reads it again. */
const WAIT_CHANGED = 'edupass.code-wait';

export const waitFor = (key: string, seconds: number): void => {
  try {
    sessionStorage.setItem(PREFIX + key, String(Date.now() + seconds * 1000));
  } catch {
    // Storage refused (private mode quota): the countdown lasts as long as the page.
  }
  window.dispatchEvent(new CustomEvent(WAIT_CHANGED, { detail: key }));
};

/** Forgets the wait kept under `key`. */
export const forgetWait = (key: string): void => {
  try {
    sessionStorage.removeItem(PREFIX + key);
  } catch {
    // Nothing was kept.
  }
};

/** The seconds a refused send says to wait (`retry_after` in the error body), if it says. */
export const retryAfterOf = (error: unknown): number | undefined => {
  if (!isAuthError(error) || typeof error.body !== 'object' || error.body === null) return undefined;
  const seconds = (error.body as { retry_after?: unknown }).retry_after;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
};

const TICK_MS = 250;

/** The wait kept under `key`, read now. */
const readWait = (key: string) => ({ key, waitUntil: readWaitUntil(key), now: Date.now() });

/** The countdown of the wait kept under `key`: seconds left, whether one was ever kept, and a re-read after a change. */
export interface StoredWait {
  left: number;
  asked: boolean;
  reread(): void;
}

/**
 * Shared by a code box and its button, so what the box says agrees with what the button allows, and by
 * the sign-in lock's notice.
 */
export const useStoredWait = (key: string): StoredWait => {
  const [read, setRead] = useState(() => readWait(key));
  // A new key is read as it renders (React's state adjusted during render: it renders again before
  // anything is shown), never in an effect after it: a frame with the previous address's wait would
  // show an enabled "Get code" for a number that must still wait.
  let current = read;
  if (read.key !== key) {
    current = readWait(key);
    setRead(current);
  }
  const reread = useCallback(() => setRead(readWait(key)), [key]);
  useEffect(() => {
    const onChange = (event: Event) => {
      if ((event as CustomEvent<string>).detail === key) reread();
    };
    window.addEventListener(WAIT_CHANGED, onChange);
    return () => window.removeEventListener(WAIT_CHANGED, onChange);
  }, [key, reread]);
  const { waitUntil, now } = current;
  const left = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each tick (`now`) arms the next one.
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setRead((r) => ({ ...r, now: Date.now() })), TICK_MS);
    return () => window.clearTimeout(timer);
  }, [left, now]);
  return { left, asked: waitUntil > 0, reread };
};

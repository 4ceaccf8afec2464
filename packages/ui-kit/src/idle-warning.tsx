/**
 * The warning before the server's idle time-out (STAFF_IDLE_MINUTES), for the console and the web
 * app's teaching screens alike: the server ends a staff session after that many minutes without a call,
 * so two minutes before, the app asks whether the person is still there. "Stay signed in" (`onStay`)
 * makes a call, which the server counts; at the time-out `onTimeout` runs, once: the app signs out
 * itself, saying why. The texts come from the caller, in its language.
 */
import { useEffect, useId, useRef, useState } from 'react';

/** How long before the time-out the warning shows. */
export const IDLE_WARN_MS = 2 * 60_000;
const TICK_MS = 1000;

export interface IdleWarningTexts {
  /** The question ('Are you still there?'). */
  title: string;
  /** What happens and when, given the time left as m:ss. */
  body(time: string): string;
  /** The button's word ('Stay signed in'). */
  stay: string;
}

export interface IdleWarningProps {
  /** The server's time-out; 0 (or less) when it has none: then nothing shows and nothing runs. */
  minutes: number;
  /** When the app last called the server (milliseconds since the epoch): the time-out counts from it. */
  lastCallAt(): number;
  /** Makes a call the server counts (and so moves `lastCallAt` on). */
  onStay(): void;
  /** The time-out passed without a call: sign out. */
  onTimeout(): void;
  texts: IdleWarningTexts;
  /** The caller's classes for the box and its button. */
  className?: string;
  buttonClass?: string;
}

/** Milliseconds as m:ss, rounded up (the last second shows 0:01, not 0:00). */
const clock = (ms: number) => {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

export const IdleWarning = ({
  minutes,
  lastCallAt,
  onStay,
  onTimeout,
  texts,
  className,
  buttonClass,
}: IdleWarningProps) => {
  const [left, setLeft] = useState<number | undefined>(undefined);
  const titleId = useId();
  // The caller's latest functions, without restarting the countdown when they are new ones.
  const calls = useRef({ lastCallAt, onTimeout });
  calls.current = { lastCallAt, onTimeout };
  useEffect(() => {
    if (minutes <= 0) return;
    let ended = false;
    const tick = () => {
      if (ended) return;
      const remaining = calls.current.lastCallAt() + minutes * 60_000 - Date.now();
      if (remaining <= 0) {
        ended = true;
        clearInterval(timer);
        setLeft(undefined);
        calls.current.onTimeout();
        return;
      }
      setLeft(remaining <= IDLE_WARN_MS ? remaining : undefined);
    };
    const timer = setInterval(tick, TICK_MS);
    tick();
    return () => {
      ended = true;
      clearInterval(timer);
    };
  }, [minutes]);
  if (left === undefined) return null;
  return (
    <div className={className} role="alertdialog" aria-labelledby={titleId} aria-live="assertive">
      <h2 id={titleId}>{texts.title}</h2>
      <p>{texts.body(clock(left))}</p>
      <button
        type="button"
        className={buttonClass}
        onClick={() => {
          setLeft(undefined);
          onStay();
        }}
      >
        {texts.stay}
      </button>
    </div>
  );
};

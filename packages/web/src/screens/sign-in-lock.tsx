/**
 * A password sign-in refused by the account's lock (E_5): the time left, counting down (the server
 * says it in `retry_after`), and the two ways in that do not wait — a code by SMS, a new password.
 * While it counts, the form sends nothing: another try would only meet the lock again.
 */
import { isAuthError } from '@edupass/account';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { retryAfterOf } from '../ui/code-wait.ts';
import { Link } from '../ui/link.tsx';

const TICK_MS = 250;

/** The seconds a refusal by the lock says are left, or undefined when it is no such refusal. */
export const lockedFor = (error: unknown): number | undefined =>
  isAuthError(error) && error.serverCode === 'E_5' ? (retryAfterOf(error) ?? 0) : undefined;

/** 14:05, 0:59: minutes and seconds, as a countdown reads. */
export const clockText = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** When the lock lifts (ms since epoch; 0 when none is known) and the whole seconds left now. */
export const useLockCountdown = () => {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each tick (`now`) arms the next one.
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), TICK_MS);
    return () => window.clearTimeout(timer);
  }, [left, now]);
  return {
    /** Seconds left; 0 when the lock is over or was never met. */
    left,
    /** Whether a lock was met on this screen (over or not). */
    met: until > 0,
    start(seconds: number) {
      const at = Date.now();
      setNow(at);
      setUntil(at + seconds * 1000);
    },
    clear() {
      setUntil(0);
    },
  };
};

export interface LockNoticeProps {
  /** Seconds left of the lock; 0 once it is over. */
  left: number;
  /** Switches this screen to the SMS code sign-in. */
  onUseSms(): void;
}

export const LockNotice = ({ left, onUseSms }: LockNoticeProps) => {
  const { t } = useI18n();
  return (
    <div className="lock-notice" data-testid="lock-notice">
      {left > 0 ? (
        <p className="form-error" role="alert">
          {t('lock.locked')} {/* Said once with the alert; the ticking digits are not read out every second. */}
          <span aria-live="off" data-testid="lock-left">
            {t('lock.left', { time: clockText(left) })}
          </span>
        </p>
      ) : (
        <p className="notice" role="status">
          {t('lock.over')}
        </p>
      )}
      <p className="lock-ways">{t('lock.ways')}</p>
      <div className="actions lock-actions">
        <button type="button" className="button secondary" onClick={onUseSms}>
          {t('lock.sms')}
        </button>
        <Link className="button secondary" href="/reset-password">
          {t('lock.reset')}
        </Link>
      </div>
    </div>
  );
};

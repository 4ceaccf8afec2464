/**
 * A password sign-in refused by the account's lock (E_5): the time left, counting down (the server
 * says it in `retry_after`), and the two ways in that do not wait — a code by SMS, a new password.
 * While it counts, the form sends nothing: another try would only meet the lock again.
 */
import { isAuthError } from '@edupass/account';
import { useI18n } from '../i18n/i18n.ts';
import { codeWaitKey, forgetWait, retryAfterOf, useStoredWait, waitFor } from '../ui/code-wait.ts';
import { Link } from '../ui/link.tsx';

/** The seconds a refusal by the lock says are left, or undefined when it is no such refusal. */
export const lockedFor = (error: unknown): number | undefined =>
  isAuthError(error) && error.serverCode === 'E_5' ? (retryAfterOf(error) ?? 0) : undefined;

/** 14:05, 0:59: minutes and seconds, as a countdown reads. */
export const clockText = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * The lock met by the account typed as `identity`: the whole seconds left, counting down. Its end is
 * kept for the tab (sessionStorage), so after a reload the notice is back as soon as the same account
 * is typed again, with the time still left and without another try.
 */
export const useLockCountdown = (identity: string) => {
  const key = codeWaitKey('sign-in-lock', identity.trim().toLowerCase());
  const wait = useStoredWait(key);
  return {
    /** Seconds left; 0 when the lock is over or was never met. */
    left: wait.left,
    /** Whether a lock was met for this account in this tab (over or not). */
    met: identity.trim() !== '' && wait.asked,
    start(seconds: number) {
      waitFor(key, seconds);
      wait.reread();
    },
    clear() {
      forgetWait(key);
      wait.reread();
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

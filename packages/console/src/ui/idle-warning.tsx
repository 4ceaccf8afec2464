/**
 * The warning before the server's idle time-out (STAFF_IDLE_MINUTES): the server ends a console
 * session after that many minutes without a call, so two minutes before, the console asks whether the
 * operator is still there. "Stay signed in" makes a call, which the server counts; at the time-out the
 * console signs out itself, saying why.
 */
import { useEffect, useState } from 'react';
import { operatorSelf } from '../api/admin-api.ts';
import { lastCallAt } from '../api/admin-call.ts';
import { endIdleSession } from '../api/session.ts';
import { useConsoleText } from '../i18n/i18n.ts';

/** How long before the time-out the warning shows. */
const WARN_MS = 2 * 60_000;
const TICK_MS = 1000;

export const IdleWarning = ({ minutes }: { minutes: number }) => {
  const { t } = useConsoleText();
  const [left, setLeft] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (minutes <= 0) return;
    const tick = () => {
      const remaining = lastCallAt() + minutes * 60_000 - Date.now();
      if (remaining <= 0) void endIdleSession(minutes);
      setLeft(remaining <= WARN_MS ? Math.max(0, remaining) : undefined);
    };
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, [minutes]);
  if (left === undefined) return null;
  const seconds = Math.ceil(left / 1000);
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <div className="console-idle" role="alertdialog" aria-labelledby="console-idle-title" aria-live="assertive">
      <h2 id="console-idle-title">{t('idle.title')}</h2>
      <p>{t('idle.body', { minutes, time })}</p>
      <button
        type="button"
        className="console-button"
        onClick={() => {
          setLeft(undefined);
          void operatorSelf();
        }}
      >
        {t('idle.stay')}
      </button>
    </div>
  );
};

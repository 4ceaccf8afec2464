/**
 * The console's warning before the server's idle time-out (the kit's `IdleWarning`): "Stay signed in"
 * reads the operator's own record, a call the server counts; at the time-out the console signs out
 * itself, and the sign-in page says why (app.tsx).
 */
import { IdleWarning as Countdown } from '@edupass/ui-kit/idle-warning.tsx';
import { operatorSelf } from '../api/admin-api.ts';
import { lastCallAt } from '../api/admin-call.ts';
import { endIdleSession } from '../api/session.ts';
import { useConsoleText } from '../i18n/i18n.ts';

export const IdleWarning = ({ minutes }: { minutes: number }) => {
  const { t } = useConsoleText();
  return (
    <Countdown
      minutes={minutes}
      lastCallAt={lastCallAt}
      onStay={() => void operatorSelf()}
      onTimeout={() => void endIdleSession(minutes)}
      texts={{ title: t('idle.title'), body: (time) => t('idle.body', { minutes, time }), stay: t('idle.stay') }}
      className="console-idle"
      buttonClass="console-button"
    />
  );
};

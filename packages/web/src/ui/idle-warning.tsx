/**
 * The warning before a staff session's idle time-out (the kit's `IdleWarning`), on the pages of a
 * teacher's or school admin's account centre and teaching screens: the memberships answer names the
 * minutes (`idle_minutes`, a staff session's only). "Stay signed in" reads the memberships again, a
 * call the server counts. At the time-out the page signs out itself and the sign-in screen says why;
 * signing in again returns to the page the teacher was on.
 */
import { forgetTokens } from '@edupass/account/custom-calls';
import { IdleWarning } from '@edupass/ui-kit/idle-warning.tsx';
import { useI18n } from '../i18n/i18n.ts';
import { navigate } from '../router/history.ts';
import { client, lastCallAt } from '../session/account.ts';
import { loadMemberships } from '../session/edu.ts';
import { captureReturn } from '../session/return-target.ts';
import { signOut } from './sign-out.ts';

/** This page, for signing in again to land on (return-target.ts): taken before the session ends. */
const thisPage = () => {
  const { pathname, search } = window.location;
  return () => captureReturn(pathname, new URLSearchParams(search), true);
};
/** To the sign-in screen, which says why. */
const toSignIn = (minutes: number) => navigate(`/?notice=idle&minutes=${minutes}`, { replace: true });

/** Ends the idle session (on the server too when it can be reached) and leaves for the sign-in screen. */
const endIdleSession = async (minutes: number): Promise<void> => {
  if (client.session.get().status !== 'signed-in') return;
  const keepPage = thisPage();
  await signOut().catch(() => forgetTokens(client));
  keepPage();
  toSignIn(minutes);
};

export const StaffIdleWarning = ({ minutes }: { minutes: number }) => {
  const { t } = useI18n();
  return (
    <IdleWarning
      minutes={minutes}
      lastCallAt={lastCallAt}
      onStay={() => {
        // A session the server ended meanwhile is over: as at the time-out.
        const keepPage = thisPage();
        loadMemberships().catch(() => {
          if (client.session.get().status !== 'signed-in') {
            keepPage();
            toSignIn(minutes);
          }
        });
      }}
      onTimeout={() => void endIdleSession(minutes)}
      texts={{ title: t('idle.title'), body: (time) => t('idle.body', { minutes, time }), stay: t('idle.stay') }}
      className="idle-warning"
      buttonClass="button primary"
    />
  );
};

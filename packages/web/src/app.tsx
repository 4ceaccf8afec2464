/** The app: header, the current screen (or the agreements gate), the consent banner. */
import { AuthProvider, useSession } from '@edupass/account/react';
import { useEffect } from 'react';
import { AppHeader } from './app-header.tsx';
import { useI18n } from './i18n/i18n.ts';
import { navigate, useLocation } from './router/history.ts';
import { RouteView } from './router/lazy-route.tsx';
import { resolve, SCREENS } from './router/routes.ts';
import { client } from './session/account.ts';
import { useGate } from './session/gate.ts';
import { pendingAppReturn } from './session/return-target.ts';
import { ConsentBanner } from './telemetry/consent-banner.tsx';
import { trackPageView } from './telemetry/telemetry.ts';

const CurrentScreen = () => {
  const { path, query } = useLocation();
  const { status } = useSession();
  const gate = useGate();
  const { t } = useI18n();
  const signedIn = status === 'signed-in';
  const { route, access } = resolve(path, query);
  const redirect = access === 'user' && !signedIn ? '/' : access === 'visitor' && signedIn ? '/account' : null;

  useEffect(() => {
    if (redirect && gate.ready) navigate(redirect, { replace: true });
  }, [redirect, gate.ready]);
  useEffect(() => trackPageView(path), [path]);

  if (!gate.ready) return <p className="route-loading">{t('app.loading')}</p>;
  if (signedIn && gate.toSign.length > 0) return <RouteView route={SCREENS.agreementsGate} />;
  // Every sign-in path ends here once signed in and past the gate: back to the application that sent the user.
  if (signedIn && pendingAppReturn()) return <RouteView route={SCREENS.returnToApp} />;
  if (redirect) return <p className="route-loading">{t('app.loading')}</p>;
  return <RouteView route={route} />;
};

export const App = () => {
  const { t } = useI18n();
  return (
    <AuthProvider client={client}>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <AppHeader />
      <main id="main">
        <CurrentScreen />
      </main>
      <ConsentBanner />
    </AuthProvider>
  );
};

/**
 * The console: sign-in, then a check that the account is an operator (the first admin call answers
 * E_4 otherwise, and nothing else is fetched), then the screen of the hash route.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { searchUsers } from './api/admin-api.ts';
import { isConsoleApiError } from './api/console-error.ts';
import { getConsoleSession, lastSessionEnd, subscribeSession } from './api/session.ts';
import { useConsoleText } from './i18n/i18n.ts';
import { useConsoleRoute } from './router.ts';
import { AgreementsScreen } from './screens/agreements.tsx';
import { ApplicationsScreen } from './screens/applications.tsx';
import { AuditScreen } from './screens/audit.tsx';
import { CaptchaScreen } from './screens/captcha-policy.tsx';
import { MonitorScreen } from './screens/monitor.tsx';
import { OauthScreen } from './screens/oauth.tsx';
import { OperatorsOnly, SignIn } from './screens/sign-in.tsx';
import { UsageScreen } from './screens/usage.tsx';
import { UserScreen } from './screens/user-page.tsx';
import { UsersScreen } from './screens/users.tsx';
import { Shell } from './shell.tsx';
import { Failure, Loading } from './ui/status.tsx';

type Access =
  | { state: 'checking' }
  | { state: 'operator'; userId: number }
  | { state: 'denied'; userId: number }
  | { state: 'failed'; userId: number; error: unknown };

const Screen = () => {
  const route = useConsoleRoute();
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    // Another screen: move focus to it, as a page load would. (Not on the first screen, where focus
    // stays at the top of the page so the first Tab reaches the skip control.)
    if (shown.current !== undefined && shown.current !== route.name) document.getElementById('console-main')?.focus();
    shown.current = route.name;
  }, [route.name]);
  const screen = (() => {
    switch (route.name) {
      case 'users':
        return <UsersScreen key={route.q} q={route.q} />;
      case 'user':
        return <UserScreen key={route.id} id={route.id} />;
      case 'agreements':
        return <AgreementsScreen />;
      case 'captcha':
        return <CaptchaScreen />;
      case 'oauth':
        return <OauthScreen />;
      case 'usage':
        return <UsageScreen />;
      case 'monitor':
        return <MonitorScreen />;
      case 'audit':
        return <AuditScreen />;
      case 'applications':
        return <ApplicationsScreen />;
    }
  })();
  return (
    <Shell route={route} signedIn={true}>
      <main id="console-main" tabIndex={-1} className="console-main">
        {screen}
      </main>
    </Shell>
  );
};

export const ConsoleApp = () => {
  const session = useSyncExternalStore(subscribeSession, getConsoleSession);
  const { t } = useConsoleText();
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  const token = session?.access;
  const userId = session?.userId;

  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    setAccess({ state: 'checking' });
    searchUsers('', undefined, 1).then(
      () => live && setAccess({ state: 'operator', userId }),
      (error: unknown) => {
        if (!live) return;
        if (isConsoleApiError(error) && error.code === 'E_4') setAccess({ state: 'denied', userId });
        else setAccess({ state: 'failed', userId, error });
      },
    );
    return () => {
      live = false;
    };
  }, [userId]);

  if (!session || !token) {
    return (
      <Shell route={undefined} signedIn={false}>
        <SignIn {...(lastSessionEnd() === 'ended' ? { notice: t('error.expired') } : {})} />
      </Shell>
    );
  }
  // Another account's answer (signed out and in again) counts as not checked yet.
  const known = access.state !== 'checking' && access.userId === userId ? access : { state: 'checking' as const };
  if (known.state === 'operator') return <Screen />;
  return (
    <Shell route={undefined} signedIn={true}>
      {known.state === 'denied' ? (
        <OperatorsOnly />
      ) : (
        <main id="console-main" tabIndex={-1} className="console-main">
          {known.state === 'checking' ? <Loading /> : <Failure error={known.error} />}
        </main>
      )}
    </Shell>
  );
};

/**
 * The console: sign-in, then who the operator is (`operatorSelf`: E_4 for anyone else, and nothing
 * else is fetched): their duties open the sections they may use; a password past the staff policy is
 * changed first; then the screen of the hash route, with the warning before the idle time-out.
 */
import { isAuthError } from '@edupass/account';
import type { OperatorSelf } from '@edupass/protocol';
import { type ComponentType, createElement, useEffect, useRef, useState } from 'react';
import { operatorSelf } from './api/admin-api.ts';
import { lastSessionEnd, useConsoleSession } from './api/session.ts';
import { useConsoleText } from './i18n/i18n.ts';
import { type PlainSection, type Section, sectionOf, sectionsFor, useConsoleRoute } from './router.ts';
import { AgreementsScreen } from './screens/agreements.tsx';
import { ApplicationsScreen } from './screens/applications.tsx';
import { AuditScreen } from './screens/audit.tsx';
import { CaptchaScreen } from './screens/captcha-policy.tsx';
import { ConnectorsScreen } from './screens/connectors/index.tsx';
import { MonitorScreen } from './screens/monitor.tsx';
import { OauthScreen } from './screens/oauth.tsx';
import { PasswordExpired } from './screens/password-expired.tsx';
import { RightsScreen } from './screens/rights.tsx';
import { SchoolsScreen } from './screens/schools.tsx';
import { Enrolment } from './screens/second-factor.tsx';
import { OperatorsOnly, SignIn } from './screens/sign-in.tsx';
import { SigningKeysScreen } from './screens/signing-keys.tsx';
import { TeachersScreen } from './screens/teachers.tsx';
import { UsageScreen } from './screens/usage.tsx';
import { UserScreen } from './screens/user-page.tsx';
import { UsersScreen } from './screens/users.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { Shell } from './shell.tsx';
import { IdleWarning } from './ui/idle-warning.tsx';
import { Failure, Loading } from './ui/status.tsx';

/** Whose access was checked: the user signed in here, or the session read back after a reload. */
type Who = number | 'restored';
type Access =
  | { state: 'checking' }
  | { state: 'operator'; userId: Who; self: OperatorSelf }
  | { state: 'expired'; userId: Who; self: OperatorSelf }
  | { state: 'denied'; userId: Who }
  | { state: 'enrol'; userId: Who }
  | { state: 'failed'; userId: Who; error: unknown };

/** The screen of each section without parameters: a new screen is a line here and its name in SECTIONS. */
const SCREENS: Record<PlainSection, ComponentType> = {
  schools: SchoolsScreen,
  connectors: ConnectorsScreen,
  teachers: TeachersScreen,
  rights: RightsScreen,
  agreements: AgreementsScreen,
  captcha: CaptchaScreen,
  oauth: OauthScreen,
  keys: SigningKeysScreen,
  webhooks: WebhooksScreen,
  applications: ApplicationsScreen,
  usage: UsageScreen,
  monitor: MonitorScreen,
  audit: AuditScreen,
};

const Screen = ({ self }: { self: OperatorSelf }) => {
  const sections: Section[] = sectionsFor(self.duties);
  const asked = useConsoleRoute();
  // A section the duties do not open shows the first one that they do (an auditor starts at the audit log).
  const first = sections[0] ?? 'audit';
  const route = sections.includes(sectionOf(asked))
    ? asked
    : first === 'users'
      ? { name: 'users' as const, q: '' }
      : { name: first };
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    // Another screen: move focus to it, as a page load would. (Not on the first screen, where focus
    // stays at the top of the page so the first Tab reaches the skip control.)
    if (shown.current !== undefined && shown.current !== route.name) document.getElementById('console-main')?.focus();
    shown.current = route.name;
  }, [route.name]);
  const screen =
    route.name === 'users' ? (
      <UsersScreen key={route.q} q={route.q} />
    ) : route.name === 'user' ? (
      <UserScreen key={route.id} id={route.id} />
    ) : (
      createElement(SCREENS[route.name])
    );
  return (
    <Shell route={route} sections={sections} signedIn={true}>
      <main id="console-main" tabIndex={-1} className="console-main">
        {screen}
      </main>
      <IdleWarning minutes={self.idle_minutes} />
    </Shell>
  );
};

/** The sign-in page's notice: why the last session ended, when the server (or the idle time-out) ended it. */
const endNotice = (end: ReturnType<typeof lastSessionEnd>, t: ReturnType<typeof useConsoleText>['t']) =>
  end === 'ended'
    ? { notice: t('error.expired') }
    : typeof end === 'object'
      ? { notice: t('idle.signedOut', { minutes: end.idle }) }
      : {};

export const ConsoleApp = () => {
  const session = useConsoleSession();
  const { t } = useConsoleText();
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  // Asked again after a second factor is set up (the answer then opens the console).
  const [asks, setAsks] = useState(0);
  const signedIn = session.status === 'signed-in';
  const userId: Who | undefined = signedIn ? (session.user?.id ?? 'restored') : undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `asks` asks again (a second factor was just set up).
  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    setAccess({ state: 'checking' });
    operatorSelf().then(
      (self) => live && setAccess({ state: self.password_expired ? 'expired' : 'operator', userId, self }),
      (error: unknown) => {
        if (!live) return;
        if (isAuthError(error) && error.serverCode === 'E_4') setAccess({ state: 'denied', userId });
        else if (isAuthError(error) && error.serverCode === 'E_14') setAccess({ state: 'enrol', userId });
        else setAccess({ state: 'failed', userId, error });
      },
    );
    return () => {
      live = false;
    };
  }, [userId, asks]);

  if (!signedIn) {
    return (
      <Shell route={undefined} signedIn={false}>
        <SignIn {...endNotice(lastSessionEnd(), t)} />
      </Shell>
    );
  }
  // Another account's answer (signed out and in again) counts as not checked yet.
  const known = access.state !== 'checking' && access.userId === userId ? access : { state: 'checking' as const };
  if (known.state === 'operator') return <Screen self={known.self} />;
  return (
    <Shell route={undefined} signedIn={true}>
      {known.state === 'denied' ? (
        <OperatorsOnly />
      ) : known.state === 'expired' ? (
        <PasswordExpired
          onChanged={() =>
            setAccess({ state: 'operator', userId: known.userId, self: { ...known.self, password_expired: false } })
          }
        />
      ) : known.state === 'enrol' ? (
        <Enrolment onEnrolled={() => setAsks((n) => n + 1)} />
      ) : (
        <main id="console-main" tabIndex={-1} className="console-main">
          {known.state === 'checking' ? <Loading /> : <Failure error={known.error} />}
        </main>
      )}
    </Shell>
  );
};

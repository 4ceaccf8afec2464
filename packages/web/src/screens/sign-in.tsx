/**
 * The visitor's first screen: SMS code, password or e-mail code, WeChat and QQ, links to sign-up and
 * reset. What is behind a click (the password and e-mail forms, the second step of a sign-in) loads on
 * that click.
 */
import { checks } from '@edupass/protocol';
import { Notice } from '@edupass/ui-kit/status.tsx';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useI18n, withMoreText } from '../i18n/i18n.ts';
import { navigate, useLocation } from '../router/history.ts';
import { useReturnApp } from '../session/return-app.ts';
import { startFlowTimer } from '../telemetry/telemetry.ts';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { OauthButtons } from './oauth-buttons.tsx';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { ReturnBanner, useSignInTitle } from './return-banner.tsx';
import type { PendingSecondStep } from './second-step-ask.ts';
import { SmsSignIn } from './sms-sign-in.tsx';

const PasswordSignIn = lazy(() => import('./password-sign-in.tsx'));
const EmailSignIn = lazy(() => import('./email-sign-in.tsx'));
const SecondStep = lazy(withMoreText(() => import('./second-step.tsx')));

const METHODS = ['sms', 'password', 'email'] as const;
type Method = (typeof METHODS)[number];
const isMethod = (value: string | null): value is Method => METHODS.includes(value as Method);

const NOTICES = {
  'password-changed': 'signIn.passwordChanged',
  'signed-out': 'signIn.signedOut',
  'school-sign-out-failed': 'signIn.schoolSignOutFailed',
  reset: 'signIn.resetDone',
  deleted: 'signIn.accountDeleted',
  'sign-in-again': 'return.signInAgain',
  // The teaching screens' idle time-out (ui/idle-warning.tsx), with its minutes.
  idle: 'signIn.idleSignedOut',
} as const;

const Loading = () => {
  const { t } = useI18n();
  return <p className="muted">{t('app.loading')}</p>;
};

const SignIn = () => {
  const { t } = useI18n();
  const { query } = useLocation();
  // `?for=pupil` (a login card's page): the password way alone, with the field named as on the card.
  const pupil = query.get('for') === 'pupil';
  const named = query.get('method');
  const asked: Method = isMethod(named) ? named : 'sms';
  const [method, setMethod] = useState<Method>(asked);
  // A link may ask for a method while this screen is already showing (after a password change).
  useEffect(() => setMethod(asked), [asked]);
  const notice = NOTICES[query.get('notice') as keyof typeof NOTICES];
  const noticeText = notice ? t(notice, { minutes: Number(query.get('minutes')) || '' }) : null;
  useEffect(() => startFlowTimer('sign_in_flow'), []);
  const [secondStep, setSecondStep] = useState<PendingSecondStep | null>(null);
  const app = useReturnApp();
  const title = useSignInTitle(app);
  // The way out of a locked password: the SMS code tab, with the number already typed if it was one.
  const [smsPhone, setSmsPhone] = useState('');
  const useSms = (identity: string) => {
    setSmsPhone(checks.phone_number(identity) ? '' : identity);
    setMethod('sms');
  };
  if (secondStep) {
    return (
      <Screen title={title}>
        <Suspense fallback={<Loading />}>
          <SecondStep pending={secondStep} />
        </Suspense>
      </Screen>
    );
  }
  if (pupil) {
    // A pupil has a card's username and password, no phone or e-mail: that way alone, and the others one tap away.
    return (
      <Screen title={title}>
        <ReturnBanner app={app} />
        <Notice message={noticeText} />
        <Suspense fallback={<Loading />}>
          <PasswordSignIn onSecondStep={setSecondStep} onUseSms={() => navigate('/sign-in')} pupil />
        </Suspense>
        <p className="aside">
          <Link href="/sign-in">{t('signIn.otherWays')}</Link>
        </p>
      </Screen>
    );
  }
  return (
    <Screen title={title}>
      <ReturnBanner app={app} />
      <Notice message={noticeText} />
      <Tabs
        label={t('signIn.methods')}
        tabs={[
          { key: 'sms', label: t('signIn.tabSms') },
          { key: 'password', label: t('signIn.tabPassword') },
          { key: 'email', label: t('signIn.tabEmail') },
        ]}
        selected={method}
        onSelect={setMethod}
      >
        {method === 'sms' ? (
          <SmsSignIn onSecondStep={setSecondStep} initialPhone={smsPhone} />
        ) : (
          <Suspense fallback={<Loading />}>
            {method === 'email' ? (
              <EmailSignIn onSecondStep={setSecondStep} />
            ) : (
              <PasswordSignIn onSecondStep={setSecondStep} onUseSms={useSms} />
            )}
          </Suspense>
        )}
      </Tabs>
      <PasskeySignIn />
      <OauthButtons />
      <p className="aside">
        {t('signIn.noAccount')} <Link href="/sign-up">{t('signIn.toSignUp')}</Link>
      </p>
    </Screen>
  );
};

export default SignIn;

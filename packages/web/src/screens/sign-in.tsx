/** The visitor's first screen: SMS code or password, WeChat and QQ, links to sign-up and reset. */
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { useLocation } from '../router/history.ts';
import { startFlowTimer } from '../telemetry/telemetry.ts';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';
import { Notice } from '../ui/status.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { OauthButtons } from './oauth-buttons.tsx';
import { PasswordSignIn } from './password-sign-in.tsx';
import { ReturnBanner } from './return-banner.tsx';
import { PasskeySignIn, type PendingSecondStep, SecondStep } from './second-step.tsx';
import { SmsSignIn } from './sms-sign-in.tsx';

type Method = 'sms' | 'password';

const NOTICES = {
  'password-changed': 'signIn.passwordChanged',
  'signed-out': 'signIn.signedOut',
  reset: 'signIn.resetDone',
  'sign-in-again': 'return.signInAgain',
} as const;

const SignIn = () => {
  const { t } = useI18n();
  const { query } = useLocation();
  const asked = query.get('method') === 'password' ? 'password' : 'sms';
  const [method, setMethod] = useState<Method>(asked);
  // A link may ask for a method while this screen is already showing (after a password change).
  useEffect(() => setMethod(asked), [asked]);
  const notice = NOTICES[query.get('notice') as keyof typeof NOTICES];
  useEffect(() => startFlowTimer('sign_in_flow'), []);
  const [secondStep, setSecondStep] = useState<PendingSecondStep | null>(null);
  if (secondStep) {
    return (
      <Screen title={t('signIn.title')}>
        <SecondStep pending={secondStep} />
      </Screen>
    );
  }
  return (
    <Screen title={t('signIn.title')}>
      <Notice message={notice ? t(notice) : null} />
      <ReturnBanner />
      <Tabs
        label={t('signIn.methods')}
        tabs={[
          { key: 'sms', label: t('signIn.tabSms') },
          { key: 'password', label: t('signIn.tabPassword') },
        ]}
        selected={method}
        onSelect={setMethod}
      >
        {method === 'sms' ? (
          <SmsSignIn onSecondStep={setSecondStep} />
        ) : (
          <PasswordSignIn onSecondStep={setSecondStep} />
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

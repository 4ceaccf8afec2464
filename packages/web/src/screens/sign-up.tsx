/** Sign-up by phone or by e-mail. */
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { startFlowTimer } from '../telemetry/telemetry.ts';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { EmailSignUp } from './email-sign-up.tsx';
import { PhoneSignUp } from './phone-sign-up.tsx';

type Method = 'phone' | 'email';

const SignUp = () => {
  const { t } = useI18n();
  const [method, setMethod] = useState<Method>('phone');
  useEffect(() => startFlowTimer('sign_in_flow'), []);
  return (
    <Screen title={t('signUp.title')}>
      <Tabs
        label={t('signUp.methods')}
        tabs={[
          { key: 'phone', label: t('signUp.tabPhone') },
          { key: 'email', label: t('signUp.tabEmail') },
        ]}
        selected={method}
        onSelect={setMethod}
      >
        {method === 'phone' ? <PhoneSignUp /> : <EmailSignUp />}
      </Tabs>
      <p className="aside">
        {t('signUp.haveAccount')} <Link href="/">{t('signUp.toSignIn')}</Link>
      </p>
    </Screen>
  );
};

export default SignUp;

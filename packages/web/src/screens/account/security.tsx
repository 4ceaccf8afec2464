/**
 * Account centre: username, password, phone, e-mail, the second factor, the signed-in devices and
 * deleting the account.
 */
import { getPrivacy } from '@edupass/account';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { passwordReportedWeak } from '../../session/weak-password.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from './account-layout.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { DevicesSection } from './devices-section.tsx';
import { EmailSection } from './email-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { PhoneSection } from './phone-section.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';
import { UsernameSection } from './username-section.tsx';

const Security = () => {
  const { t } = useI18n();
  const privacy = useLoad(() => getPrivacy(client));
  const privacyError = useLoadError(privacy);
  const data = privacy.data;
  // A password change may sign the other devices out: the list is read again.
  const [devicesRound, setDevicesRound] = useState(0);
  return (
    <AccountLayout title={t('account.security')}>
      <FormError {...privacyError} />
      {data ? (
        <>
          <UsernameSection current={data.username} onChanged={privacy.reload} />
          <PasswordSection
            hasPassword={data.has_password}
            hasPhone={data.phone_number !== ''}
            weak={passwordReportedWeak()}
            onChanged={privacy.reload}
            onPasswordChanged={() => setDevicesRound((n) => n + 1)}
          />
          <PhoneSection masked={data.phone_number} onChanged={privacy.reload} />
          <EmailSection current={data.email} onChanged={privacy.reload} />
          <SecondFactorSection />
          <DevicesSection key={devicesRound} />
          <DeleteAccountSection />
        </>
      ) : (
        <p className="muted">{t('app.loading')}</p>
      )}
    </AccountLayout>
  );
};

export default Security;

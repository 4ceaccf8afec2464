/** Account centre: username, password and phone. */
import { getPrivacy } from '@edupass/account';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { passwordReportedWeak } from '../../session/weak-password.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { FormError } from '../../ui/status.tsx';
import { useLoad } from '../../ui/use-load.ts';
import { AccountLayout } from './account-layout.tsx';
import { PasswordSection } from './password-section.tsx';
import { PhoneSection } from './phone-section.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';
import { UsernameSection } from './username-section.tsx';

const Security = () => {
  const { t } = useI18n();
  const privacy = useLoad(() => getPrivacy(client));
  const privacyError = useLoadError(privacy);
  const data = privacy.data;
  return (
    <AccountLayout title={t('account.security')}>
      <FormError message={privacyError} />
      {data ? (
        <>
          <UsernameSection current={data.username} onChanged={privacy.reload} />
          <PasswordSection
            hasPassword={data.has_password}
            hasPhone={data.phone_number !== ''}
            weak={passwordReportedWeak()}
            onChanged={privacy.reload}
          />
          <PhoneSection masked={data.phone_number} onChanged={privacy.reload} />
          <SecondFactorSection />
        </>
      ) : (
        <p className="muted">{t('app.loading')}</p>
      )}
    </AccountLayout>
  );
};

export default Security;

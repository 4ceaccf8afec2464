/** Account centre: the profile. */
import { getProfile } from '@edupass/account';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { takeRefusedReturn } from '../../session/return-target.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from './account-layout.tsx';
import { FamilySection } from './family-section.tsx';
import { ProfileForm } from './profile-form.tsx';

const Profile = () => {
  const { t } = useI18n();
  const profile = useLoad(() => getProfile(client));
  const [returnRefused] = useState(takeRefusedReturn);
  const profileError = useLoadError(profile);
  return (
    <AccountLayout title={t('profile.title')}>
      <Notice message={returnRefused ? t('return.refused') : null} />
      <FormError {...profileError} />
      {profile.data ? <ProfileForm user={profile.data} /> : <p className="muted">{t('app.loading')}</p>}
      <FamilySection />
    </AccountLayout>
  );
};

export default Profile;

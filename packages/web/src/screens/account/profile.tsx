/** Account centre: the profile. */
import { getProfile } from '@edupass/account';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useContext, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { takeRefusedReturn } from '../../session/return-notes.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout, EduStanding } from './account-layout.tsx';
import { FamilySection } from './family-section.tsx';
import { ProfileForm } from './profile-form.tsx';

/** The profile's fields; for a child waiting for a guardian, folded under what waits (consent-waiting.tsx, above every page). */
const ProfileFields = () => {
  const { t } = useI18n();
  const profile = useLoad(() => getProfile(client));
  const profileError = useLoadError(profile);
  const standing = useContext(EduStanding);
  const waiting = typeof standing?.deleted_without_consent_at === 'number';
  // Known before the form shows: a child waiting must not see it jump away under their finger.
  if (standing === undefined) return <p className="muted">{t('app.loading')}</p>;
  const form = (
    <>
      <FormError {...profileError} />
      {profile.data ? <ProfileForm user={profile.data} /> : <p className="muted">{t('app.loading')}</p>}
    </>
  );
  if (!waiting) return form;
  return (
    <details className="account-section">
      <summary className="button block">{t('profile.edit')}</summary>
      {form}
    </details>
  );
};

const Profile = () => {
  const { t } = useI18n();
  const [returnRefused] = useState(takeRefusedReturn);
  return (
    <AccountLayout title={t('profile.title')}>
      <Notice message={returnRefused ? t('return.refused') : null} />
      <ProfileFields />
      <FamilySection />
    </AccountLayout>
  );
};

export default Profile;

/** "Signing in to …": the application the user came from, on the sign-in screen. */
import { useI18n } from '../i18n/i18n.ts';
import { useReturnApp } from '../session/return-app.ts';

export const ReturnBanner = () => {
  const { t } = useI18n();
  const app = useReturnApp();
  if (app === undefined) return null;
  return (
    <p className="return-app">
      {app.logo_url ? <img src={app.logo_url} alt="" width={24} height={24} /> : null}
      <span>{t('return.signingInTo', { app: app.name })}</span>
    </p>
  );
};

/**
 * The application the user came from, on the sign-in screen: its name in the heading ("Sign in to
 * Courses") and its logo above, as registered in the console's applications (its initials without one).
 */
import { useI18n } from '../i18n/i18n.ts';
import type { ReturnApp } from '../session/return-target.ts';
import { AppLogo } from '../ui/app-logo.tsx';

/** The sign-in screen's heading: the application's name when one is waiting for the user. */
export const useSignInTitle = (app: ReturnApp | undefined): string => {
  const { t } = useI18n();
  return app ? t('signIn.titleFor', { app: app.name }) : t('signIn.title');
};

export const ReturnBanner = ({ app }: { app: ReturnApp | undefined }) =>
  app ? (
    <p className="return-app">
      <AppLogo name={app.name} url={app.logo_url} />
    </p>
  ) : null;

/**
 * "Or sign in with WeChat / QQ / your school / a login card": buttons that start the provider's redirect
 * flow, a link to the school chooser, and one to the sign-in a pupil's card asks for (its username).
 */
import { useI18n } from '../i18n/i18n.ts';
import { startOauth } from '../oauth/start.ts';
import { Link } from '../ui/link.tsx';

export const OauthButtons = () => {
  const { t } = useI18n();
  return (
    <div className="oauth">
      <p className="divider">
        <span>{t('signIn.or')}</span>
      </p>
      <div className="oauth-buttons">
        <button type="button" className="button oauth-wechat" onClick={() => startOauth('wechat', 'login')}>
          {t('signIn.wechat')}
        </button>
        <button type="button" className="button oauth-qq" onClick={() => startOauth('qq', 'login')}>
          {t('signIn.qq')}
        </button>
        <Link href="/school" className="button oauth-school">
          {t('signIn.school')}
        </Link>
        <Link href="/sign-in?for=pupil" className="button oauth-school">
          {t('signIn.card')}
        </Link>
      </div>
    </div>
  );
};

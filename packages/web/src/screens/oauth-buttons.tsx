/** "Or sign in with WeChat / QQ": buttons that start the provider's redirect flow. */
import { useI18n } from '../i18n/i18n.ts';
import { startOauth } from '../oauth/start.ts';

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
      </div>
    </div>
  );
};

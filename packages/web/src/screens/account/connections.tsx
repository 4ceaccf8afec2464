/**
 * Account centre: WeChat and QQ, bound or not. Unbinding asks first; the server never unbinds the last
 * way in (and says why). An account that could give no proof here signs in again and the unbinding it
 * confirmed goes on.
 */
import { listOauths, unbindQQ, unbindWechat } from '@edupass/account';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useRef } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { startOauth } from '../../oauth/start.ts';
import { useLocation } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { trackEvent } from '../../telemetry/telemetry.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { useResume } from '../../ui/resume.ts';
import { useStepUp } from '../../ui/step-up.tsx';
import { AccountLayout } from './account-layout.tsx';

const PROVIDERS = ['wechat', 'qq'] as const;
type Provider = (typeof PROVIDERS)[number];
const isProvider = (value: unknown): value is Provider => PROVIDERS.includes(value as Provider);

const Connections = () => {
  const { t } = useI18n();
  const { query } = useLocation();
  const oauths = useLoad(() => listOauths(client));
  const oauthsError = useLoadError(oauths);
  const action = useAction();
  // The provider being unbound: kept across signing in again (ui/resume.ts).
  const unbinding = useRef<Provider>('wechat');
  const stepUp = useStepUp(action, { form: 'unbind', fields: () => ({ provider: unbinding.current }) });
  const confirm = useConfirm();
  const justBound = query.get('bound');
  const nameOf = (provider: string) => t(provider === 'wechat' ? 'oauth.wechat' : 'oauth.qq');
  const unbind = (provider: Provider) => {
    unbinding.current = provider;
    return stepUp.run(async () => {
      await (provider === 'wechat' ? unbindWechat(client) : unbindQQ(client));
      trackEvent('oauth_unbound', { provider });
      oauths.reload();
      return t('oauth.unbindDone', { name: nameOf(provider) });
    });
  };
  useResume('unbind', ({ step, fields }) => {
    if (step === 'submit' && isProvider(fields.provider)) void unbind(fields.provider);
  });
  return (
    <AccountLayout title={t('oauth.title')}>
      <p>{t('oauth.intro')}</p>
      <Notice
        message={
          action.notice ??
          (justBound === 'wechat' || justBound === 'qq' ? t('oauth.bindDone', { name: nameOf(justBound) }) : null)
        }
      />
      {action.error ? <FormError message={action.error} onRetry={action.retry} /> : <FormError {...oauthsError} />}
      {stepUp.panel}
      <ul className="connections">
        {PROVIDERS.map((provider) => {
          const item = oauths.data?.find((o) => o.name === provider);
          const name = nameOf(provider);
          return (
            <li key={provider} className={`connection ${provider}`}>
              <span className="connection-name">{name}</span>
              <span className="muted">
                {item?.is_bound ? t('oauth.bound', { nickname: item.nickname || name }) : t('oauth.unbound')}
              </span>
              {item?.is_bound ? (
                <button
                  type="button"
                  className="button secondary"
                  aria-busy={action.busy}
                  onClick={async () => {
                    const sure = await confirm.ask({
                      title: t('oauth.unbindConfirmTitle', { name }),
                      body: t('oauth.unbindConfirmBody', { name }),
                      confirmLabel: t('oauth.unbind', { name }),
                    });
                    if (sure) await unbind(provider);
                  }}
                >
                  {t('oauth.unbind', { name })}
                </button>
              ) : (
                <button
                  type="button"
                  className="button secondary"
                  disabled={!oauths.data}
                  onClick={() => void stepUp.ensure(async () => startOauth(provider, 'bind'))}
                >
                  {t('oauth.bind', { name })}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {confirm.dialog}
    </AccountLayout>
  );
};

export default Connections;

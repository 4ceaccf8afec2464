/**
 * The signed-in devices: each with its browser and system (read from its user agent), the address it
 * signed in from as stored, when it was last active, and "this device"; signing one out, or all the
 * others, asks first and takes effect at once on the server. The server may ask for a fresh proof
 * first (step-up: a stolen token must not sign the owner out everywhere): the panel asks for it and
 * the sign-out goes on.
 */

import { endSession, listSessions, type SessionSummary } from '@edupass/account/sessions';
import { endOtherSessions } from '@edupass/account/step-up';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { deviceName } from '../../ui/device-name.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { useStepUp } from '../../ui/step-up.tsx';

export const useDeviceLabel = () => {
  const { t } = useI18n();
  return (device: SessionSummary) => {
    const { browser, system } = deviceName(device.user_agent);
    if (browser && system) return t('devices.browserOn', { browser, system });
    return browser ?? system ?? t('devices.unknown');
  };
};

export const DevicesSection = () => {
  const { t, locale } = useI18n();
  const devices = useLoad(() => listSessions(client));
  const loadError = useLoadError(devices);
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  const label = useDeviceLabel();
  const when = (ms: number) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const others = (devices.data ?? []).filter((device) => !device.current);

  const signOut = async (device: SessionSummary) => {
    const name = label(device);
    const sure = await confirm.ask({
      title: t('devices.signOutTitle', { name }),
      body: t('devices.signOutBody'),
      confirmLabel: t('devices.signOut'),
    });
    if (!sure) return;
    await stepUp.run(async () => {
      await endSession(client, { id: device.id });
      devices.reload();
      return t('devices.signedOut', { name });
    });
  };
  const signOutOthers = async () => {
    const sure = await confirm.ask({
      title: t('devices.signOutOthersTitle'),
      body: t('devices.signOutOthersBody', { count: others.length }),
      confirmLabel: t('devices.signOutOthers'),
    });
    if (!sure) return;
    await stepUp.run(async () => {
      await endOtherSessions(client);
      devices.reload();
      return t('devices.signedOutOthers');
    });
  };

  return (
    <section className="subsection" aria-labelledby="devices-title">
      <h2 id="devices-title">{t('devices.title')}</h2>
      <p className="muted">{t('devices.intro')}</p>
      {stepUp.panel}
      {action.error ? <FormError message={action.error} onRetry={action.retry} /> : <FormError {...loadError} />}
      <Notice message={action.notice} />
      {devices.data ? (
        <ul className="devices">
          {devices.data.map((device) => (
            <li key={device.id} className="device">
              <div className="device-facts">
                <strong>
                  {label(device)}
                  {device.current ? <span className="this-device"> · {t('devices.thisDevice')}</span> : null}
                </strong>
                <span className="muted">
                  {t('devices.facts', {
                    ip: device.ip || t('devices.noIp'),
                    active: when(device.last_active_at),
                    since: when(device.created_at),
                  })}
                </span>
              </div>
              {device.current ? null : (
                <button type="button" className="button secondary" onClick={() => void signOut(device)}>
                  {t('devices.signOut')}
                  <span className="visually-hidden"> {label(device)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('app.loading')}</p>
      )}
      {others.length > 0 ? (
        <button type="button" className="button secondary" onClick={() => void signOutOthers()}>
          {t('devices.signOutOthers')}
        </button>
      ) : null}
      {confirm.dialog}
    </section>
  );
};

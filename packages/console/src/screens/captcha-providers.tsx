/** The captcha provider of each product: chosen here, or left to configuration. */
import {
  CAPTCHA_PROVIDERS,
  type CaptchaProviderChoice,
  type CaptchaProviderName,
  type CaptchaVendorState,
} from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { clearCaptchaProvider, setCaptchaProvider } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Card } from '../ui/table.tsx';

/** Runs a change, shows `done` once it succeeded (or the error), and reloads the settings. */
export type Act = (action: () => Promise<unknown>, done: string) => Promise<boolean>;

const FROM_CONFIG = '';

const ProviderForm = ({
  choice,
  vendors,
  busy,
  act,
}: {
  choice: CaptchaProviderChoice;
  vendors: CaptchaVendorState[];
  busy: boolean;
  act: Act;
}) => {
  const { t } = useConsoleText();
  const [value, setValue] = useState<string>(choice.operator ?? FROM_CONFIG);
  const label = choice.pid === '*' ? t('captcha.productAll') : choice.pid;
  const id = `captcha-provider-${choice.pid === '*' ? 'all' : choice.pid}`;
  const ready = (provider: CaptchaProviderName) =>
    provider === 'SLIDE' || vendors.some((v) => v.name === provider && v.configured);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const provider = CAPTCHA_PROVIDERS.find((p) => p === value);
    void act(
      () => (provider ? setCaptchaProvider(choice.pid, provider) : clearCaptchaProvider(choice.pid)),
      provider
        ? t('captcha.didSaveProvider', { pid: choice.pid, provider })
        : t('captcha.didClearProvider', { pid: choice.pid }),
    );
  };
  return (
    <form className="console-filters" onSubmit={submit}>
      <label htmlFor={id}>{t('captcha.providerFor', { pid: label })}</label>
      <select id={id} value={value} onChange={(e) => setValue(e.target.value)} aria-describedby={`${id}-state`}>
        <option value={FROM_CONFIG}>{t('captcha.fromConfig')}</option>
        {CAPTCHA_PROVIDERS.map((provider) => (
          <option key={provider} value={provider}>
            {ready(provider) ? provider : t('captcha.keysMissing', { provider })}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="console-button"
        disabled={busy}
        aria-label={t('captcha.saveProviderLabel', { pid: label })}
      >
        {t('captcha.saveProvider')}
      </button>
      <span id={`${id}-state`} className="console-muted">
        {t('captcha.inEffect', { provider: choice.effective })}
        {choice.configured ? ` · ${t('captcha.configuredAs', { provider: choice.configured })}` : ''}
      </span>
    </form>
  );
};

export const ProviderChoices = ({
  providers,
  vendors,
  busy,
  act,
}: {
  providers: CaptchaProviderChoice[];
  vendors: CaptchaVendorState[];
  busy: boolean;
  act: Act;
}) => {
  const { t } = useConsoleText();
  return (
    <Card id="captcha-providers" title={t('captcha.providers')}>
      <p className="console-muted">{t('captcha.providersExplain')}</p>
      {providers.map((choice) => (
        // Keyed by what the server holds, so a saved choice resets the form to it.
        <ProviderForm
          key={`${choice.pid}:${choice.operator ?? ''}`}
          choice={choice}
          vendors={vendors}
          busy={busy}
          act={act}
        />
      ))}
    </Card>
  );
};

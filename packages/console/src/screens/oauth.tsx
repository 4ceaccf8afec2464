/** Per product: whether WeChat/QQ code sign-in and bind are accepted without EduPass's state. */

import type { OauthStateSetting } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import { clearOauthWithoutState, getOauthSettings, setOauthWithoutState } from '../api/oauth-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Loaded } from '../ui/status.tsx';
import { Card } from '../ui/table.tsx';

const FROM_CONFIG = '';
type Choice = typeof FROM_CONFIG | 'on' | 'off';

const ProductChoice = ({
  setting,
  busy,
  save,
}: {
  setting: OauthStateSetting;
  busy: boolean;
  save: (pid: string, choice: Choice) => void;
}) => {
  const { t } = useConsoleText();
  const [choice, setChoice] = useState<Choice>(
    setting.operator === null ? FROM_CONFIG : setting.operator ? 'on' : 'off',
  );
  const id = `oauth-state-${setting.pid}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(setting.pid, choice);
  };
  return (
    <form className="console-filters" onSubmit={submit}>
      <label htmlFor={id}>{t('oauth.choiceFor', { pid: setting.pid })}</label>
      <select
        id={id}
        value={choice}
        onChange={(e) => setChoice(e.target.value as Choice)}
        aria-describedby={`${id}-state`}
      >
        <option value={FROM_CONFIG}>
          {t('oauth.fromConfig')} ({setting.configured ? t('oauth.on') : t('oauth.off')})
        </option>
        <option value="on">{t('oauth.on')}</option>
        <option value="off">{t('oauth.off')}</option>
      </select>
      <button
        type="submit"
        className="console-button"
        disabled={busy}
        aria-label={t('oauth.saveLabel', { pid: setting.pid })}
      >
        {t('oauth.save')}
      </button>
      <span id={`${id}-state`} className="console-muted">
        {t('oauth.inEffect')}: {setting.effective ? t('oauth.on') : t('oauth.off')}
      </span>
    </form>
  );
};

export const OauthScreen = () => {
  const { t, errorText } = useConsoleText();
  const settings = useLoad(getOauthSettings);
  const { busy, error, notice, run } = useAction(errorText);
  const save = async (pid: string, choice: Choice) => {
    const saved = await run(async () => {
      await (choice === FROM_CONFIG ? clearOauthWithoutState(pid) : setOauthWithoutState(pid, choice === 'on'));
      return t('oauth.didSave', { pid });
    });
    if (saved) settings.reload();
  };
  return (
    <>
      <h1>{t('oauth.title')}</h1>
      <p className="console-lead">{t('oauth.explain')}</p>
      <Notice message={notice} />
      <FormError message={error} />
      <Loaded state={settings}>
        {(choices) => (
          <Card id="oauth-state" title={t('oauth.choice')}>
            {choices.map((setting) => (
              <ProductChoice
                key={`${setting.pid}:${String(setting.operator)}`}
                setting={setting}
                busy={busy}
                save={save}
              />
            ))}
          </Card>
        )}
      </Loaded>
    </>
  );
};

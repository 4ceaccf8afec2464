/** The username: set once, with the reason said before it is set. */
import { setUsername } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { Field } from '../../ui/field.tsx';
import { FormError, Notice } from '../../ui/status.tsx';
import { useAction } from '../../ui/use-action.ts';
import { useRuleError } from '../../ui/validation.ts';

export const UsernameSection = ({ current, onChanged }: { current: string; onChanged(): void }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const [username, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (checks.username(username)) return;
    void action.run(async () => {
      await setUsername(client, { username });
      onChanged();
      return t('username.done');
    });
  };
  return (
    <section className="subsection" aria-labelledby="username-title">
      <h2 id="username-title">{t('username.title')}</h2>
      {current ? (
        <p>{t('username.current', { name: current })}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>{t('username.explain')}</p>
          <Field
            label={t('username.label')}
            hint={t('username.hint')}
            value={username}
            onValue={setValue}
            error={username ? ruleError('username', username) : null}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={30}
          />
          <FormError message={action.error} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('username.submit')}
          </button>
        </form>
      )}
      <Notice message={action.notice} />
    </section>
  );
};

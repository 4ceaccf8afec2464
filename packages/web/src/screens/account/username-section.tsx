/** The username: set once, with the reason said before it is set and a last confirmation. */
import { setUsername } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { Field } from '../../ui/field.tsx';
import { useRuleError } from '../../ui/validation.ts';

export const UsernameSection = ({ current, onChanged }: { current: string; onChanged(): void }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const confirm = useConfirm();
  const [username, setValue] = useState('');
  const [checked, setChecked] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (checks.username(username)) {
      // Rendered invalid on this submit; focused once it is.
      requestAnimationFrame(() => action.focusFirstInvalid());
      return;
    }
    const sure = await confirm.ask({
      title: t('username.confirmTitle', { name: username }),
      body: t('username.confirmBody'),
      confirmLabel: t('username.submit'),
    });
    if (!sure) return;
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
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p>{t('username.explain')}</p>
          <Field
            label={t('username.label')}
            hint={t('username.hint')}
            value={username}
            onValue={setValue}
            error={username || checked ? ruleError('username', username) : null}
            bind={action.field('username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={30}
          />
          <FormError message={action.error} onRetry={action.retry} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('username.submit')}
          </button>
        </form>
      )}
      <Notice message={action.notice} />
      {confirm.dialog}
    </section>
  );
};

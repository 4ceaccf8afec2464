/** The e-mail address: shown masked, added or changed with a code to the new address (step-up first). */
import { bindEmail, sendEmailBindCode } from '@edupass/account/email';
import { checks } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { CodeInput, EmailField } from '../../ui/account-fields.tsx';
import { maskEmail } from '../../ui/mask-email.ts';
import { useTouched } from '../../ui/validation.ts';
import { useIdentifierChange } from './identifier-change.tsx';

export const EmailSection = ({ current, onChanged }: { current: string; onChanged(): void }) => {
  const { t } = useI18n();
  const touched = useTouched();
  const [email, setEmail] = useState('');
  const { action, stepUp, code, setCode, sender, change, endOthersButton, confirmDialog, resumed } =
    useIdentifierChange(onChanged, { form: 'email', fields: () => ({ email }) });
  const changing = current !== '';
  // Back from signing in again: the address as it was, and the code send goes on.
  useEffect(() => {
    if (resumed) setEmail(resumed.fields.email ?? '');
  }, [resumed]);
  const send = sender('email_bind', email, (proof) => sendEmailBindCode(client, { email }, proof));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.email(email) || checks.captcha(code)) return;
    change(
      async () => {
        await bindEmail(client, { email, captcha: code });
        setEmail('');
      },
      t(changing ? 'email.changeDone' : 'email.addDone'),
      changing,
    );
  };

  return (
    <section className="subsection" aria-labelledby="email-title">
      <h2 id="email-title">{t('email.title')}</h2>
      <p>{changing ? t('email.bound', { email: maskEmail(current) }) : t('email.none')}</p>
      {stepUp.panel}
      {/* While "Confirm it is you" is open the form waits behind it: one code field on screen. */}
      <form onSubmit={submit} noValidate hidden={stepUp.panel !== null}>
        <EmailField
          label={changing ? t('email.new') : t('form.email')}
          value={email}
          onValue={setEmail}
          touched={touched}
        />
        <CodeInput
          value={code}
          onValue={setCode}
          blockedReason={checks.email(email) ? t('code.needEmail') : null}
          onSend={send}
          sendNow={resumed?.step === 'send'}
        />
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        {endOthersButton}
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {changing ? t('email.changeSubmit') : t('email.addSubmit')}
        </button>
      </form>
      {confirmDialog}
    </section>
  );
};

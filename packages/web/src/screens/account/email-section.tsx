/** The e-mail address: shown masked, added or changed with a code to the new address (step-up first). */
import { bindEmail, sendEmailBindCode } from '@edupass/account/email';
import { endOtherSessions } from '@edupass/account/step-up';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { CodeInput, EmailField } from '../../ui/account-fields.tsx';
import { maskEmail } from '../../ui/mask-email.ts';
import { FormError, Notice } from '../../ui/status.tsx';
import { useStepUp } from '../../ui/step-up.tsx';
import { useAction } from '../../ui/use-action.ts';
import { useSendCode } from '../../ui/use-send-code.ts';
import { useTouched } from '../../ui/validation.ts';

export const EmailSection = ({ current, onChanged }: { current: string; onChanged(): void }) => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const stepUp = useStepUp(action);
  const changing = current !== '';
  const [email, setEmail] = useState('');
  // After a change, the other sessions may be someone else's: offer to end them.
  const [offerSignOut, setOfferSignOut] = useState(false);
  const { code, setCode, sender } = useSendCode(action, stepUp);
  const send = sender('email_bind', email, (proof) => sendEmailBindCode(client, { email }, proof));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.email(email) || checks.captcha(code)) return;
    void stepUp.run(async () => {
      await bindEmail(client, { email, captcha: code });
      setEmail('');
      setCode('');
      setOfferSignOut(changing);
      onChanged();
      return t(changing ? 'email.changeDone' : 'email.addDone');
    });
  };

  return (
    <section className="subsection" aria-labelledby="email-title">
      <h2 id="email-title">{t('email.title')}</h2>
      <p>{changing ? t('email.bound', { email: maskEmail(current) }) : t('email.none')}</p>
      {stepUp.panel}
      <form onSubmit={submit} noValidate>
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
        />
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        {offerSignOut ? (
          <button
            type="button"
            className="button secondary"
            onClick={() =>
              action.run(async () => {
                await endOtherSessions(client);
                setOfferSignOut(false);
                return t('stepUp.endOthersDone');
              })
            }
          >
            {t('stepUp.endOthers')}
          </button>
        ) : null}
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {changing ? t('email.changeSubmit') : t('email.addSubmit')}
        </button>
      </form>
    </section>
  );
};

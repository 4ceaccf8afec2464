/** Sign up with e-mail, the code sent there and a password; the agreements are signed by the same request. */
import { checkEmailCode, sendEmailCode } from '@edupass/account';
import { registerByEmailWithAge } from '@edupass/account/sign-up-age';
import { checks } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { CodeField, EmailField } from '../ui/account-fields.tsx';
import { AgreementsCheck, useAgreed } from '../ui/agreements-check.tsx';
import { BirthMonthField, birthMonthChosen } from '../ui/birth-month-field.tsx';
import { FormEnd } from '../ui/form-end.tsx';
import { useNewPassword } from '../ui/new-password-fields.tsx';
import { useSendCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';

export const EmailSignUp = () => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const { agreements, agreed, checkProps } = useAgreed(touched);
  const { code, setCode, sentTo, sender } = useSendCode(action);
  const [email, setEmail] = useState('');
  const [birth, setBirth] = useState('');
  const { password, confirm, fit, fields } = useNewPassword(action, touched, t('form.password'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.email(email) || checks.captcha(code) || !fit || !agreed || !birthMonthChosen(birth))
      return void requestAnimationFrame(() => action.focusFirstInvalid());
    void action.run(async () => {
      const { ticket } = await checkEmailCode(client, { email, captcha: code });
      await registerByEmailWithAge(client, {
        captchaTicket: ticket,
        password,
        rePassword: confirm,
        birth_year_month: birth,
        agreement_ids: agreements.map((a) => a.id),
      });
      trackEvent('sign_up', { method: 'email' });
      await afterSignIn('sign-up-email');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <EmailField value={email} onValue={setEmail} touched={touched} bind={action.field('email')} />
      <CodeField
        value={code}
        onValue={setCode}
        touched={touched}
        bind={action.field('captcha')}
        blockedReason={checks.email(email) ? t('code.needEmail') : null}
        onSend={sender('email_register', email, (proof) => sendEmailCode(client, { email }, proof))}
        sentTo={sentTo}
      />
      <BirthMonthField value={birth} onValue={setBirth} touched={touched} />
      {fields}
      <AgreementsCheck {...checkProps} />
      <FormEnd action={action} submit={t('signUp.submit')} />
    </form>
  );
};

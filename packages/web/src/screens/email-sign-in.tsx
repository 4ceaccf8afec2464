/** Sign in with the e-mail address of an account and the code sent there. */
import { loginByEmail, sendEmailLoginCode } from '@edupass/account/email';
import { checks } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import type { FormEvent } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { EmailCodeFields } from '../ui/account-fields.tsx';
import { AgreementsCheck, useAgreed } from '../ui/agreements-check.tsx';
import { FormEnd } from '../ui/form-end.tsx';
import { useEmailCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';
import { askingSecondStep, type PendingSecondStep } from './second-step-ask.ts';

export const EmailSignIn = ({ onSecondStep }: { onSecondStep(pending: PendingSecondStep): void }) => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const { agreements, agreed, checkProps } = useAgreed(touched);
  const { email, code, fields } = useEmailCode(action, 'email_login', (input, proof) =>
    sendEmailLoginCode(client, input, proof),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.email(email) || checks.captcha(code) || !agreed) return;
    void action.run(async () => {
      const agreement_ids = agreements.map((a) => a.id);
      const signedIn = signInForProduct(
        (product) => loginByEmail(client, { email, captcha: code, agreement_ids, ...product }),
        'email',
      );
      if (await askingSecondStep(signedIn, 'email', onSecondStep)) await afterSignIn('email');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <EmailCodeFields {...fields} touched={touched} />
      <AgreementsCheck {...checkProps} />
      <p className="hint">{t('signIn.emailNote')}</p>
      <FormEnd action={action} submit={t('signIn.submit')} />
    </form>
  );
};

export default EmailSignIn;

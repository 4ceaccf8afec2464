/** Sign in with phone and SMS code; a new number gets an account (the silent login). */
import { loginByPhoneSilently, sendSilentLoginCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import type { FormEvent } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { PhoneCodeFields } from '../ui/account-fields.tsx';
import { AgreementsCheck, useAgreed } from '../ui/agreements-check.tsx';
import { FormEnd } from '../ui/form-end.tsx';
import { usePhoneCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';
import { askingSecondStep, type PendingSecondStep } from './second-step-ask.ts';

export interface SmsSignInProps {
  onSecondStep(pending: PendingSecondStep): void;
  /** The number to start with (from the password tab's way out of a lock). */
  initialPhone?: string;
}

export const SmsSignIn = ({ onSecondStep, initialPhone = '' }: SmsSignInProps) => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const { agreements, agreed, checkProps } = useAgreed(touched);
  const { phone, code, fields } = usePhoneCode(
    action,
    'silence',
    (input, proof) => sendSilentLoginCode(client, input, proof),
    initialPhone,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.phone_number(phone) || checks.captcha(code) || !agreed) {
      return void requestAnimationFrame(() => action.focusFirstInvalid());
    }
    void action.run(async () => {
      const signedIn = signInForProduct(
        (product) =>
          loginByPhoneSilently(client, {
            phone_number: phone,
            captcha: code,
            agreement_ids: agreements.map((a) => a.id),
            ...product,
          }),
        'sms',
      );
      if (await askingSecondStep(signedIn, 'sms', onSecondStep)) await afterSignIn('sms');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <PhoneCodeFields {...fields} touched={touched} />
      <AgreementsCheck {...checkProps} />
      <p className="hint">{t('signIn.smsNote')}</p>
      <FormEnd action={action} submit={t('signIn.submit')} />
    </form>
  );
};

/** Sign up with phone, SMS code and password, agreeing to the agreements. */
import { sendRegisterCode } from '@edupass/account';
import { registerByPhoneWithAge } from '@edupass/account/sign-up-age';
import { checks } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { PhoneCodeFields } from '../ui/account-fields.tsx';
import { AgreementsCheck, useAgreed } from '../ui/agreements-check.tsx';
import { BirthMonthField, birthMonthChosen } from '../ui/birth-month-field.tsx';
import { FormEnd } from '../ui/form-end.tsx';
import { NewPasswordField } from '../ui/new-password-fields.tsx';
import { usePhoneCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';

export const PhoneSignUp = () => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const { agreements, agreed, checkProps } = useAgreed(touched);
  const { phone, code, fields } = usePhoneCode(action, 'register', (input, proof) =>
    sendRegisterCode(client, input, proof),
  );
  const [password, setPassword] = useState('');
  const [birth, setBirth] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (
      checks.phone_number(phone) ||
      checks.captcha(code) ||
      checks.password(password) ||
      !agreed ||
      !birthMonthChosen(birth)
    )
      return void requestAnimationFrame(() => action.focusFirstInvalid());
    void action.run(async () => {
      await registerByPhoneWithAge(client, {
        phone_number: phone,
        captcha: code,
        password,
        agreement_ids: agreements.map((a) => a.id),
        birth_year_month: birth,
      });
      trackEvent('sign_up', { method: 'phone' });
      await afterSignIn('sign-up-phone');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <PhoneCodeFields {...fields} touched={touched} />
      <BirthMonthField value={birth} onValue={setBirth} touched={touched} />
      <NewPasswordField
        label={t('form.password')}
        value={password}
        onValue={setPassword}
        touched={touched}
        bind={action.field('password')}
      />
      <AgreementsCheck {...checkProps} />
      <FormEnd action={action} submit={t('signUp.submit')} />
    </form>
  );
};

/** Sign up with phone, SMS code and password, agreeing to the agreements. */
import { registerByPhone, sendRegisterCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { CodeField, NewPasswordField, PhoneField } from '../ui/account-fields.tsx';
import { AgreementsCheck, useCurrentAgreements } from '../ui/agreements-check.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';
import { useRuleError, useTouched } from '../ui/validation.ts';

export const PhoneSignUp = () => {
  const { t } = useI18n();
  const _ruleError = useRuleError();
  const touched = useTouched();
  const action = useAction();
  const agreements = useCurrentAgreements();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const send = async () => {
    action.setError(null);
    try {
      await withCaptcha('register', phone, (proof) => sendRegisterCode(client, { phone_number: phone }, proof));
      setSentTo(phone);
      return true;
    } catch (error) {
      action.fail(error);
      return false;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (checks.phone_number(phone) || checks.captcha(code) || checks.password(password) || !agreed) return;
    void action.run(async () => {
      await registerByPhone(client, {
        phone_number: phone,
        captcha: code,
        password,
        agreement_ids: agreements.map((a) => a.id),
      });
      trackEvent('sign_up', { method: 'phone' });
      await afterSignIn('sign-up-phone');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <PhoneField value={phone} onValue={setPhone} touched={touched} />
      <CodeField
        value={code}
        onValue={setCode}
        touched={touched}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={send}
        sentTo={sentTo}
      />
      <NewPasswordField label={t('form.password')} value={password} onValue={setPassword} touched={touched} />
      <AgreementsCheck
        agreements={agreements}
        checked={agreed}
        onChecked={setAgreed}
        error={touched.shown('agree') && !agreed ? t('agree.required') : null}
      />
      <FormError message={action.error} />
      <button type="submit" className="button primary block" aria-busy={action.busy}>
        {action.busy ? t('form.working') : t('signUp.submit')}
      </button>
    </form>
  );
};

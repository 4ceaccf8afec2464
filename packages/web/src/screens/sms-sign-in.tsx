/** Sign in with phone and SMS code; a new number gets an account (the silent login). */
import { loginByPhoneSilently, sendSilentLoginCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { CodeField, PhoneField } from '../ui/account-fields.tsx';
import { AgreementsCheck, useCurrentAgreements } from '../ui/agreements-check.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';
import { useRuleError, useTouched } from '../ui/validation.ts';

export const SmsSignIn = () => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const touched = useTouched();
  const action = useAction();
  const agreements = useCurrentAgreements();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const phoneError = touched.shown('phone') ? ruleError('phone_number', phone) : null;
  const codeError = touched.shown('code') ? ruleError('captcha', code) : null;

  const send = async () => {
    action.setError(null);
    try {
      await withCaptcha('silence', phone, (proof) => sendSilentLoginCode(client, { phone_number: phone }, proof));
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
    if (checks.phone_number(phone) || checks.captcha(code) || !agreed) return;
    void action.run(async () => {
      await loginByPhoneSilently(client, {
        phone_number: phone,
        captcha: code,
        agreement_ids: agreements.map((a) => a.id),
      });
      await afterSignIn('sms');
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <PhoneField value={phone} onValue={setPhone} touched={touched} error={phoneError} />
      <CodeField
        value={code}
        onValue={setCode}
        touched={touched}
        error={codeError}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={send}
        sentTo={sentTo}
      />
      <AgreementsCheck
        agreements={agreements}
        checked={agreed}
        onChecked={setAgreed}
        error={touched.shown('agree') && !agreed ? t('agree.required') : null}
      />
      <p className="hint">{t('signIn.smsNote')}</p>
      <FormError message={action.error} />
      <button type="submit" className="button primary block" aria-busy={action.busy}>
        {action.busy ? t('form.working') : t('signIn.submit')}
      </button>
    </form>
  );
};

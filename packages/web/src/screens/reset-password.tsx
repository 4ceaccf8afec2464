/** Password reset by phone: code to the account's phone, then the new password. */
import { checkResetCode, resetPassword, sendResetCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { navigate } from '../router/history.ts';
import { client } from '../session/account.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { CodeField, NewPasswordField, PhoneField } from '../ui/account-fields.tsx';
import { Field } from '../ui/field.tsx';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';
import { useRuleError, useTouched } from '../ui/validation.ts';

const ResetPassword = () => {
  const { t } = useI18n();
  const _ruleError = useRuleError();
  const touched = useTouched();
  const action = useAction();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const send = async () => {
    action.setError(null);
    try {
      await withCaptcha('reset', phone, (proof) => sendResetCode(client, { phone_number: phone }, proof));
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
    if (checks.phone_number(phone) || checks.captcha(code) || checks.password(password) || confirm !== password) return;
    void action.run(async () => {
      const { ticket } = await checkResetCode(client, { phone_number: phone, captcha: code });
      await resetPassword(client, { ticket, password, confirm_password: confirm });
      trackEvent('password_reset');
      navigate('/?method=password&notice=reset', { replace: true });
    });
  };

  return (
    <Screen title={t('reset.title')}>
      <p>{t('reset.intro')}</p>
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
        <NewPasswordField label={t('form.newPassword')} value={password} onValue={setPassword} touched={touched} />
        <Field
          label={t('form.confirmPassword')}
          value={confirm}
          onValue={setConfirm}
          onBlur={touched.blur('confirm')}
          error={touched.shown('confirm') && confirm !== password ? t('form.mismatch') : null}
          type="password"
          autoComplete="new-password"
          maxLength={20}
          required
        />
        <FormError message={action.error} />
        <button type="submit" className="button primary block" aria-busy={action.busy}>
          {action.busy ? t('form.working') : t('reset.submit')}
        </button>
      </form>
      <p className="aside">
        <Link href="/">{t('reset.back')}</Link>
      </p>
    </Screen>
  );
};

export default ResetPassword;

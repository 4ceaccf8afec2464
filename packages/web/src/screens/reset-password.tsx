/** Password reset by phone: code to the account's phone, then the new password. */
import { checkResetCode, resetPassword, sendResetCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { navigate } from '../router/history.ts';
import { client } from '../session/account.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { ConfirmPasswordField, NewPasswordField, PhoneCodeFields } from '../ui/account-fields.tsx';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';
import { usePhoneCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';

const ResetPassword = () => {
  const { t } = useI18n();
  const touched = useTouched();
  const action = useAction();
  const { phone, code, fields } = usePhoneCode(action, 'reset', (input, proof) => sendResetCode(client, input, proof));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

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
        <PhoneCodeFields {...fields} touched={touched} />
        <NewPasswordField label={t('form.newPassword')} value={password} onValue={setPassword} touched={touched} />
        <ConfirmPasswordField value={confirm} onValue={setConfirm} touched={touched} password={password} />
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

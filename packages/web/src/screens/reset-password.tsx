/** Password reset by a code to the account's phone or e-mail, then the new password. */
import { checkResetCode, resetPassword, sendResetCode } from '@edupass/account';
import { checkEmailResetCode, sendEmailResetCode } from '@edupass/account/email';
import { checks } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { navigate, useLocation } from '../router/history.ts';
import { client } from '../session/account.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { EmailCodeFields, PhoneCodeFields } from '../ui/account-fields.tsx';
import { FormEnd } from '../ui/form-end.tsx';
import { Link } from '../ui/link.tsx';
import { useNewPassword } from '../ui/new-password-fields.tsx';
import { Screen } from '../ui/screen.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { useEmailCode, usePhoneCode } from '../ui/use-send-code.ts';
import { useTouched } from '../ui/validation.ts';

type Way = 'phone' | 'email';

const ResetPassword = () => {
  const { t } = useI18n();
  const { query } = useLocation();
  const [way, setWay] = useState<Way>(query.get('by') === 'email' ? 'email' : 'phone');
  const touched = useTouched();
  const action = useAction();
  const byPhone = usePhoneCode(action, 'reset', (input, proof) => sendResetCode(client, input, proof));
  const byEmail = useEmailCode(action, 'email_reset', (input, proof) => sendEmailResetCode(client, input, proof));
  const { password, confirm, fit, fields } = useNewPassword(action, touched, t('form.newPassword'));

  const proved = way === 'phone' ? !checks.phone_number(byPhone.phone) : !checks.email(byEmail.email);
  const code = way === 'phone' ? byPhone.code : byEmail.code;
  const ticket = async () =>
    way === 'phone'
      ? checkResetCode(client, { phone_number: byPhone.phone, captcha: code })
      : checkEmailResetCode(client, { email: byEmail.email, captcha: code });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.submit();
    if (!proved || checks.captcha(code) || !fit) {
      return void requestAnimationFrame(() => action.focusFirstInvalid());
    }
    void action.run(async () => {
      await resetPassword(client, { ticket: (await ticket()).ticket, password, confirm_password: confirm });
      trackEvent('password_reset');
      navigate('/?method=password&notice=reset', { replace: true });
    });
  };

  return (
    <Screen title={t('reset.title')}>
      <Tabs
        label={t('reset.ways')}
        tabs={[
          { key: 'phone', label: t('reset.byPhone') },
          { key: 'email', label: t('reset.byEmail') },
        ]}
        selected={way}
        onSelect={setWay}
      >
        <p>{t(way === 'phone' ? 'reset.intro' : 'reset.introEmail')}</p>
        <form onSubmit={submit} noValidate>
          {way === 'phone' ? (
            <PhoneCodeFields {...byPhone.fields} touched={touched} />
          ) : (
            <EmailCodeFields {...byEmail.fields} touched={touched} />
          )}
          {fields}
          <FormEnd action={action} submit={t('reset.submit')} />
        </form>
      </Tabs>
      <p className="aside">
        <Link href="/">{t('reset.back')}</Link>
      </p>
    </Screen>
  );
};

export default ResetPassword;

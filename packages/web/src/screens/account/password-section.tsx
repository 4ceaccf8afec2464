/**
 * The password: set the first one, or change it with the current one or with a code to the bound
 * phone. A change ends the session, so the user signs in again with the new password.
 */
import { changePassword, changePasswordByPhone, initPassword, sendPasswordUpdateCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { withCaptcha } from '../../captcha/human-check.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { navigate } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { trackEvent } from '../../telemetry/telemetry.ts';
import { CodeButton } from '../../ui/code-button.tsx';
import { Field } from '../../ui/field.tsx';
import { FormError, Notice } from '../../ui/status.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { useAction } from '../../ui/use-action.ts';
import { useRuleError } from '../../ui/validation.ts';

const changed = () => {
  trackEvent('password_changed');
  navigate('/?method=password&notice=password-changed', { replace: true });
};

const NewPasswordFields = (props: {
  password: string;
  confirm: string;
  setPassword(v: string): void;
  setConfirm(v: string): void;
}) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <>
      <Field
        label={t('form.newPassword')}
        hint={t('form.passwordHint')}
        value={props.password}
        onValue={props.setPassword}
        error={props.password ? ruleError('password', props.password) : null}
        type="password"
        autoComplete="new-password"
        maxLength={20}
      />
      <Field
        label={t('form.confirmPassword')}
        value={props.confirm}
        onValue={props.setConfirm}
        error={props.confirm && props.confirm !== props.password ? t('form.mismatch') : null}
        type="password"
        autoComplete="new-password"
        maxLength={20}
      />
    </>
  );
};

const SetFirstPassword = ({ onChanged }: { onChanged(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await initPassword(client, { password, confirm_password: confirm });
      onChanged();
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{t('password.none')}</p>
      <NewPasswordFields {...{ password, confirm, setPassword, setConfirm }} />
      <FormError message={action.error} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {t('password.setSubmit')}
      </button>
    </form>
  );
};

const ByOldPassword = () => {
  const { t } = useI18n();
  const action = useAction();
  const [old, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await changePassword(client, { old_password: old, password, confirm_password: confirm });
      changed();
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field label={t('password.old')} value={old} onValue={setOld} type="password" autoComplete="current-password" />
      <NewPasswordFields {...{ password, confirm, setPassword, setConfirm }} />
      <FormError message={action.error} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {t('password.submit')}
      </button>
    </form>
  );
};

const ByPhoneCode = () => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) return action.setError(t('form.mismatch'));
    void action.run(async () => {
      await changePasswordByPhone(client, { phone_number: phone, captcha: code, password });
      changed();
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>{t('password.byPhoneIntro')}</p>
      <Field
        label={t('form.phone')}
        value={phone}
        onValue={setPhone}
        error={phone.length === 11 ? ruleError('phone_number', phone) : null}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        maxLength={11}
      />
      <Field
        label={t('form.code')}
        value={code}
        onValue={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        addon={
          <CodeButton
            blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
            onSend={async () => {
              try {
                await withCaptcha('password_update', phone, (proof) =>
                  sendPasswordUpdateCode(client, { phone_number: phone }, proof),
                );
                return true;
              } catch (error) {
                action.fail(error);
                return false;
              }
            }}
          />
        }
      />
      <NewPasswordFields {...{ password, confirm, setPassword, setConfirm }} />
      <FormError message={action.error} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {t('password.submit')}
      </button>
    </form>
  );
};

export const PasswordSection = ({
  hasPassword,
  hasPhone,
  onChanged,
}: {
  hasPassword: boolean;
  hasPhone: boolean;
  onChanged(): void;
}) => {
  const { t } = useI18n();
  const [way, setWay] = useState<'old' | 'phone'>('old');
  // Said here, not in the first-password form, which goes away once the password is set.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section className="subsection" aria-labelledby="password-title">
      <h2 id="password-title">{t('password.title')}</h2>
      <Notice message={notice} />
      {!hasPassword ? (
        <SetFirstPassword
          onChanged={() => {
            setNotice(t('password.setDone'));
            onChanged();
          }}
        />
      ) : (
        <Tabs
          label={t('password.title')}
          tabs={[
            { key: 'old', label: t('password.byOld') },
            { key: 'phone', label: t('password.byPhone') },
          ]}
          selected={way}
          onSelect={setWay}
        >
          {way === 'old' ? <ByOldPassword /> : hasPhone ? <ByPhoneCode /> : <p>{t('password.noPhone')}</p>}
        </Tabs>
      )}
    </section>
  );
};

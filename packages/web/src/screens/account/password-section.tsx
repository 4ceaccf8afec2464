/**
 * The password: set the first one, or change it with the current one or with a code to the bound
 * phone. A change ends the session, so the user signs in again with the new password.
 */
import { changePassword, changePasswordByPhone, initPassword, sendPasswordUpdateCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { navigate } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { rememberWeakPassword } from '../../session/weak-password.ts';
import { trackEvent } from '../../telemetry/telemetry.ts';
import { CodeInput } from '../../ui/account-fields.tsx';
import { Field } from '../../ui/field.tsx';
import { PhoneInput } from '../../ui/phone-input.tsx';
import { FormError, Notice } from '../../ui/status.tsx';
import { useStepUp } from '../../ui/step-up.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { type Action, useAction } from '../../ui/use-action.ts';
import { useSendCode } from '../../ui/use-send-code.ts';
import { useRuleError } from '../../ui/validation.ts';

const changed = () => {
  rememberWeakPassword(false);
  trackEvent('password_changed');
  navigate('/?method=password&notice=password-changed', { replace: true });
};

/**
 * A form that ends in the new password, typed twice, and its submit button; `children` come first.
 * `onSubmit` gets both passwords and runs the change with `action`.
 */
const NewPasswordForm = ({
  action,
  submitLabel,
  onSubmit,
  children,
}: {
  action: Action;
  submitLabel: string;
  onSubmit(password: string, confirm: string): void;
  children: ReactNode;
}) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(password, confirm);
  };
  return (
    <form onSubmit={submit} noValidate>
      {children}
      <Field
        label={t('form.newPassword')}
        hint={t('form.passwordHint')}
        value={password}
        onValue={setPassword}
        error={password ? ruleError('password', password) : null}
        type="password"
        autoComplete="new-password"
        maxLength={20}
      />
      <Field
        label={t('form.confirmPassword')}
        value={confirm}
        onValue={setConfirm}
        error={confirm && confirm !== password ? t('form.mismatch') : null}
        type="password"
        autoComplete="new-password"
        maxLength={20}
      />
      <FormError message={action.error} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {submitLabel}
      </button>
    </form>
  );
};

const SetFirstPassword = ({ onChanged }: { onChanged(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.setSubmit')}
      onSubmit={(password, confirm) =>
        void stepUp.run(async () => {
          await initPassword(client, { password, confirm_password: confirm });
          onChanged();
        })
      }
    >
      <p>{t('password.none')}</p>
      {stepUp.panel}
    </NewPasswordForm>
  );
};

const ByOldPassword = () => {
  const { t } = useI18n();
  const action = useAction();
  const [old, setOld] = useState('');
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.submit')}
      onSubmit={(password, confirm) =>
        void action.run(async () => {
          await changePassword(client, { old_password: old, password, confirm_password: confirm });
          changed();
        })
      }
    >
      <Field label={t('password.old')} value={old} onValue={setOld} type="password" autoComplete="current-password" />
    </NewPasswordForm>
  );
};

const ByPhoneCode = () => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const stepUp = useStepUp(action);
  const { code, setCode, sender } = useSendCode(action, stepUp);
  const [phone, setPhone] = useState('');
  return (
    <NewPasswordForm
      action={action}
      submitLabel={t('password.submit')}
      onSubmit={(password, confirm) => {
        // This change takes the password once, so the two are compared here rather than by the server.
        if (password !== confirm) return action.setError(t('form.mismatch'));
        void stepUp.run(async () => {
          await changePasswordByPhone(client, { phone_number: phone, captcha: code, password });
          changed();
        });
      }}
    >
      <p>{t('password.byPhoneIntro')}</p>
      {stepUp.panel}
      <PhoneInput
        label={t('form.phone')}
        value={phone}
        onValue={setPhone}
        error={phone.length >= 11 ? ruleError('phone_number', phone) : null}
      />
      <CodeInput
        value={code}
        onValue={setCode}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={sender('password_update', phone, (proof) =>
          sendPasswordUpdateCode(client, { phone_number: phone }, proof),
        )}
      />
    </NewPasswordForm>
  );
};

export const PasswordSection = ({
  hasPassword,
  hasPhone,
  weak,
  onChanged,
}: {
  hasPassword: boolean;
  hasPhone: boolean;
  /** The password was reported weak at sign-in: suggest a change. */
  weak: boolean;
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
      {hasPassword && weak ? <p className="form-warning">{t('password.weak')}</p> : null}
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

/** A new password and the same typed again: sign-up, the password reset and the account's password change. */
import { checks } from '@edupass/protocol';
import type { Action } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import type { FieldProps } from './account-fields.tsx';
import { Field } from './field.tsx';
import { useRuleError, type useTouched } from './validation.ts';

export const NewPasswordField = ({ label, value, onValue, touched, bind }: FieldProps & { label: string }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <Field
      label={label}
      hint={t('form.passwordHint')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('password')}
      error={touched.shown('password') ? ruleError('password', value) : null}
      bind={bind}
      type="password"
      autoComplete="new-password"
      maxLength={20}
      required
    />
  );
};

/** The new password typed again; judged against `password` once it has lost focus or the form was submitted. */
export const ConfirmPasswordField = ({
  value,
  onValue,
  touched,
  password,
  bind,
}: FieldProps & { password: string }) => {
  const { t } = useI18n();
  return (
    <Field
      label={t('form.confirmPassword')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('confirm')}
      error={touched.shown('confirm') && value !== password ? t('form.mismatch') : null}
      bind={bind}
      type="password"
      autoComplete="new-password"
      maxLength={20}
      required
    />
  );
};

/**
 * A new password and the same typed again (the password labelled `label`): their values, whether they
 * are fit to send, and their two fields, bound to the form's `password` and `confirm_password` errors.
 */
export const useNewPassword = (action: Action, touched: ReturnType<typeof useTouched>, label: string) => {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const fields = (
    <>
      <NewPasswordField
        label={label}
        value={password}
        onValue={setPassword}
        touched={touched}
        bind={action.field('password')}
      />
      <ConfirmPasswordField
        value={confirm}
        onValue={setConfirm}
        touched={touched}
        password={password}
        bind={action.field('confirm_password')}
      />
    </>
  );
  return { password, confirm, fit: !checks.password(password) && confirm === password, fields };
};

/** The phone, code, new-password and confirmation fields that sign-up, sign-in, reset and the account share. */
import { checks } from '@edupass/protocol';
import { useI18n } from '../i18n/i18n.ts';
import { CodeButton, type CodeButtonProps } from './code-button.tsx';
import { Field, type FieldProps as InputProps } from './field.tsx';
import { normalizeCode } from './normalize-digits.ts';
import { PhoneInput } from './phone-input.tsx';
import { Notice } from './status.tsx';
import { useRuleError, type useTouched } from './validation.ts';

interface FieldProps {
  value: string;
  onValue: (value: string) => void;
  touched: ReturnType<typeof useTouched>;
}

export const PhoneField = ({ value, onValue, touched }: FieldProps) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <PhoneInput
      label={t('form.phone')}
      hint={t('form.phoneHint')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('phone')}
      error={touched.shown('phone') ? ruleError('phone_number', value) : null}
      required
    />
  );
};

/** The code input with its send button beside it; the rest of the field's props as the form wants them. */
export const CodeInput = ({
  blockedReason,
  onSend,
  onValue,
  ...field
}: Omit<InputProps, 'label'> & CodeButtonProps) => {
  const { t } = useI18n();
  return (
    <Field
      label={t('form.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      addon={<CodeButton blockedReason={blockedReason} onSend={onSend} />}
      onValue={(raw) => onValue(normalizeCode(raw))}
      {...field}
    />
  );
};

interface CodeFieldProps extends FieldProps, CodeButtonProps {
  /** Where the last code went, announced under the field. */
  sentTo: string | null;
}

/** The code, judged once it has lost focus or the form was submitted, and where it went. */
export const CodeField = ({ value, onValue, touched, blockedReason, onSend, sentTo }: CodeFieldProps) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <>
      <CodeInput
        hint={t('form.codeHint')}
        value={value}
        onValue={onValue}
        onBlur={touched.blur('code')}
        error={touched.shown('code') ? ruleError('captcha', value) : null}
        required
        blockedReason={blockedReason}
        onSend={onSend}
      />
      <Notice message={sentTo ? t('code.sent', { to: sentTo }) : null} />
    </>
  );
};

/** A phone number and the code sent to it; no code can be asked for before the number is valid. */
export const PhoneCodeFields = ({
  phone,
  onPhone,
  code,
  onCode,
  touched,
  onSend,
  sentTo,
}: Omit<CodeFieldProps, 'value' | 'onValue' | 'blockedReason'> & {
  phone: string;
  onPhone(phone: string): void;
  code: string;
  onCode(code: string): void;
}) => {
  const { t } = useI18n();
  return (
    <>
      <PhoneField value={phone} onValue={onPhone} touched={touched} />
      <CodeField
        value={code}
        onValue={onCode}
        touched={touched}
        blockedReason={checks.phone_number(phone) ? t('code.needPhone') : null}
        onSend={onSend}
        sentTo={sentTo}
      />
    </>
  );
};

export const NewPasswordField = ({ label, value, onValue, touched }: FieldProps & { label: string }) => {
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
      type="password"
      autoComplete="new-password"
      maxLength={20}
      required
    />
  );
};

/** The new password typed again; judged against `password` once it has lost focus or the form was submitted. */
export const ConfirmPasswordField = ({ value, onValue, touched, password }: FieldProps & { password: string }) => {
  const { t } = useI18n();
  return (
    <Field
      label={t('form.confirmPassword')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('confirm')}
      error={touched.shown('confirm') && value !== password ? t('form.mismatch') : null}
      type="password"
      autoComplete="new-password"
      maxLength={20}
      required
    />
  );
};

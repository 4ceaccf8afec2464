/** The phone, code and new-password fields that sign-up, sign-in and reset share. */
import { useI18n } from '../i18n/i18n.ts';
import { CodeButton } from './code-button.tsx';
import { Field } from './field.tsx';
import { Notice } from './status.tsx';
import { useRuleError, type useTouched } from './validation.ts';

interface FieldProps {
  value: string;
  onValue: (value: string) => void;
  touched: ReturnType<typeof useTouched>;
  /** Replaces the rule's own message (a screen that judges the field differently). */
  error?: string | null;
}

export const PhoneField = ({ value, onValue, touched, error }: FieldProps) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <Field
      label={t('form.phone')}
      hint={t('form.phoneHint')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('phone')}
      error={error !== undefined ? error : touched.shown('phone') ? ruleError('phone_number', value) : null}
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      maxLength={11}
      required
    />
  );
};

interface CodeFieldProps extends FieldProps {
  /** Why the send button is disabled (no valid phone or e-mail yet), or null. */
  blockedReason: string | null;
  onSend: () => Promise<boolean>;
  /** Where the last code went, announced under the field. */
  sentTo: string | null;
}

export const CodeField = ({ value, onValue, touched, error, blockedReason, onSend, sentTo }: CodeFieldProps) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <>
      <Field
        label={t('form.code')}
        hint={t('form.codeHint')}
        value={value}
        onValue={onValue}
        onBlur={touched.blur('code')}
        error={error !== undefined ? error : touched.shown('code') ? ruleError('captcha', value) : null}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        addon={<CodeButton blockedReason={blockedReason} onSend={onSend} />}
      />
      <Notice message={sentTo ? t('code.sent', { to: sentTo }) : null} />
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

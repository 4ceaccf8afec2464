/**
 * The phone, e-mail and code fields that sign-up, sign-in, reset and the account share (a new password
 * and its confirmation: new-password-fields.tsx, not on the first screen).
 */
import { checks } from '@edupass/protocol';
import { Notice } from '@edupass/ui-kit/status.tsx';
import type { BoundField } from '@edupass/ui-kit/use-action.ts';
import { useI18n } from '../i18n/i18n.ts';
import { CodeButton, type CodeButtonProps } from './code-button.tsx';
import { useStoredWait } from './code-wait.ts';
import { Field, type FieldProps as InputProps } from './field.tsx';
import { normalizeCode } from './normalize-digits.ts';
import { PhoneInput } from './phone-input.tsx';
import { useRuleError, type useTouched } from './validation.ts';

export interface FieldProps {
  value: string;
  onValue: (value: string) => void;
  touched: ReturnType<typeof useTouched>;
  /** The form's errors about this input (`action.field(name)`). */
  bind?: BoundField | undefined;
}

export const PhoneField = ({ value, onValue, touched, bind }: FieldProps) => {
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
      bind={bind}
      required
    />
  );
};

export const EmailField = ({ value, onValue, touched, label, bind }: FieldProps & { label?: string }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  return (
    <Field
      label={label ?? t('form.email')}
      value={value}
      onValue={onValue}
      onBlur={touched.blur('email')}
      error={touched.shown('email') ? ruleError('email', value) : null}
      bind={bind}
      type="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      required
    />
  );
};

/** The code input with its send button beside it; the rest of the field's props as the form wants them. */
export const CodeInput = ({
  blockedReason,
  onSend,
  sendNow,
  onValue,
  bind,
  ...field
}: Omit<InputProps, 'label'> & CodeButtonProps) => {
  const { t } = useI18n();
  const wait = useStoredWait(onSend.waitKey);
  // "Ask for a new one" only when one may be asked for; until then the button counts down.
  const waitingBind =
    bind?.code === 'VERIFY_CAPTCHA_FAIL' && wait.left > 0 ? { ...bind, error: t('code.wrongWhileWaiting') } : bind;
  return (
    <Field
      label={t('form.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      addon={<CodeButton blockedReason={blockedReason} onSend={onSend} wait={wait} sendNow={sendNow} />}
      onValue={(raw) => onValue(normalizeCode(raw))}
      bind={waitingBind}
      {...field}
    />
  );
};

interface CodeFieldProps extends FieldProps, CodeButtonProps {
  /** Where the last code went, announced under the field. */
  sentTo: string | null;
}

/** The code, judged once it has lost focus or the form was submitted, and where it went. */
export const CodeField = ({ value, onValue, touched, bind, blockedReason, onSend, sentTo }: CodeFieldProps) => {
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
        bind={bind}
        required
        blockedReason={blockedReason}
        onSend={onSend}
      />
      <Notice message={sentTo ? t('code.sent', { to: sentTo }) : null} />
    </>
  );
};

type AddressCodeProps = Omit<CodeFieldProps, 'value' | 'onValue' | 'blockedReason' | 'bind'> & {
  code: string;
  onCode(code: string): void;
  /** The form's errors about the code box. */
  bindCode?: BoundField | undefined;
};

/** Where a code can go: its field, the rule it must pass before a code is asked for, and why not yet. */
const ADDRESSES = {
  phone: { Input: PhoneField, valid: (v: string) => !checks.phone_number(v), need: 'code.needPhone' },
  email: { Input: EmailField, valid: (v: string) => !checks.email(v), need: 'code.needEmail' },
} as const;

const AddressCodeFields = ({
  kind,
  address,
  onAddress,
  code,
  onCode,
  touched,
  onSend,
  sentTo,
  bindAddress,
  bindCode,
}: AddressCodeProps & {
  kind: keyof typeof ADDRESSES;
  address: string;
  onAddress(value: string): void;
  bindAddress?: BoundField | undefined;
}) => {
  const { t } = useI18n();
  const { Input, valid, need } = ADDRESSES[kind];
  return (
    <>
      <Input value={address} onValue={onAddress} touched={touched} bind={bindAddress} />
      <CodeField
        value={code}
        onValue={onCode}
        touched={touched}
        bind={bindCode}
        blockedReason={valid(address) ? null : t(need)}
        onSend={onSend}
        sentTo={sentTo}
      />
    </>
  );
};

/** A phone number and the code sent to it; no code can be asked for before the number is valid. */
export const PhoneCodeFields = ({
  phone,
  onPhone,
  bindPhone,
  ...rest
}: AddressCodeProps & { phone: string; onPhone(phone: string): void; bindPhone?: BoundField | undefined }) => (
  <AddressCodeFields kind="phone" address={phone} onAddress={onPhone} bindAddress={bindPhone} {...rest} />
);

/** An e-mail address and the code sent to it; no code can be asked for before the address is valid. */
export const EmailCodeFields = ({
  email,
  onEmail,
  bindEmail,
  ...rest
}: AddressCodeProps & { email: string; onEmail(email: string): void; bindEmail?: BoundField | undefined }) => (
  <AddressCodeFields kind="email" address={email} onAddress={onEmail} bindAddress={bindEmail} {...rest} />
);

/** The field for a second-factor code: six digits from an app, or (unless `appOnly`) a recovery code. */
import { Field } from './field.tsx';

export const SecondFactorCode = ({
  label,
  value,
  onValue,
  appOnly = false,
}: {
  label: string;
  value: string;
  onValue(value: string): void;
  /** Only an app code fits (confirming a new app): digits, six of them. */
  appOnly?: boolean;
}) => (
  <Field
    label={label}
    value={value}
    onValue={onValue}
    autoComplete="one-time-code"
    autoCapitalize="characters"
    spellCheck={false}
    maxLength={appOnly ? 6 : 16}
    {...(appOnly ? { inputMode: 'numeric' } : {})}
    required
  />
);

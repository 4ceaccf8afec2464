/** The field for a second-factor code: six digits from an app, or (unless `appOnly`) a recovery code. */
import { useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
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

/**
 * The code of a second step: the app's (a recovery code typed there works too), with "use a recovery
 * code instead" (and back) that says so plainly for whoever has no phone or app at hand. The field
 * is emptied on each switch.
 */
export const AppOrRecoveryCode = ({
  value,
  onValue,
  recovery,
}: {
  value: string;
  onValue(value: string): void;
  /** The account has recovery codes to offer. */
  recovery: boolean;
}) => {
  const { t } = useI18n();
  const [byRecovery, setByRecovery] = useState(false);
  const field = useRef<HTMLDivElement>(null);
  const toggle = () => {
    setByRecovery(!byRecovery);
    onValue('');
    // The field's label changed under the keyboard user: take them back to it.
    requestAnimationFrame(() => field.current?.querySelector('input')?.focus());
  };
  return (
    <div ref={field}>
      <SecondFactorCode label={t(byRecovery ? 'mfa.recoveryCode' : 'mfa.code')} value={value} onValue={onValue} />
      {recovery ? (
        <button type="button" className="button ghost" onClick={toggle}>
          {t(byRecovery ? 'mfa.useApp' : 'mfa.useRecovery')}
        </button>
      ) : null}
    </div>
  );
};

/** A labelled input with its hint and inline error, wired for screen readers. */
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  ref?: Ref<HTMLInputElement>;
  value: string;
  onValue(value: string): void;
  hint?: string | undefined;
  /** Shown below the input, and marks it invalid. */
  error?: string | null | undefined;
  /** Rendered beside the input (a send-code button). */
  addon?: ReactNode;
}

export const Field = ({ label, value, onValue, hint, error, addon, id, type = 'text', ...input }: FieldProps) => {
  const generated = useId();
  const inputId = id ?? generated;
  const [revealed, setRevealed] = useState(false);
  const { t } = useI18n();
  const isPassword = type === 'password';
  const describedBy = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <div className="field-row">
        <input
          id={inputId}
          type={isPassword && revealed ? 'text' : type}
          value={value}
          onChange={(event) => onValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
        />
        {isPassword ? (
          <button
            type="button"
            className="button ghost reveal"
            aria-pressed={revealed}
            aria-controls={inputId}
            onClick={() => setRevealed(!revealed)}
          >
            {revealed ? t('form.hide') : t('form.show')}
            <span className="visually-hidden"> {label}</span>
          </button>
        ) : null}
        {addon}
      </div>
      {hint ? (
        <p id={`${inputId}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className="error-text">
          {error}
        </p>
      ) : null}
    </div>
  );
};

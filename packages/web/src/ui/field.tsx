/**
 * A labelled input with its hint and inline error, wired for screen readers: the error (the field's own
 * rule, or the server's refusal of this field through `bind`) marks it invalid and describes it.
 */

import type { BoundField } from '@edupass/ui-kit/use-action.ts';
import { type InputHTMLAttributes, type ReactNode, type Ref, type RefCallback, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

/** One callback ref feeding both refs. */
const bothRefs =
  <T,>(a: Ref<T> | undefined, b: RefCallback<T> | undefined): RefCallback<T> =>
  (element) => {
    if (typeof a === 'function') a(element);
    else if (a) a.current = element;
    b?.(element);
  };

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
  /** The form's errors about this input (`action.field(name)`): shown first, cleared as it is edited. */
  bind?: BoundField | undefined;
}

export const Field = ({
  label,
  value,
  onValue,
  hint,
  error: ruleError,
  addon,
  bind,
  ref,
  id,
  type = 'text',
  ...input
}: FieldProps) => {
  const error = bind?.error ?? ruleError;
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
          onChange={(event) => {
            bind?.onInput();
            onValue(event.target.value);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          ref={bind ? bothRefs(ref, bind.ref) : ref}
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

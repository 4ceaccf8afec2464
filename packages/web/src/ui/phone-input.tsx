/**
 * A phone number box: takes what people type, paste or autofill (+86, spaces, dashes, full-width
 * digits) without cutting it first, hands the form the bare digits and shows them grouped 3-4-4,
 * keeping the caret after the digit it followed.
 */
import { useLayoutEffect, useRef } from 'react';
import { Field, type FieldProps } from './field.tsx';
import { groupPhone, normalizePhone } from './normalize-digits.ts';

const digitsBefore = (text: string, end: number) => normalizePhone(text.slice(0, end)).length;

/** The index in `grouped` just after its `count`-th digit. */
const indexAfterDigits = (grouped: string, count: number) => {
  let seen = 0;
  for (let i = 0; i < grouped.length; i++) {
    if (seen === count) return i;
    if (/\d/.test(grouped.charAt(i))) seen++;
  }
  return grouped.length;
};

export const PhoneInput = ({ value, onValue, ...field }: Omit<FieldProps, 'type' | 'inputMode'>) => {
  const input = useRef<HTMLInputElement>(null);
  const caretDigits = useRef<number | null>(null);
  const shown = groupPhone(value);

  useLayoutEffect(() => {
    const element = input.current;
    if (caretDigits.current === null || element === null || document.activeElement !== element) return;
    const at = indexAfterDigits(shown, caretDigits.current);
    element.setSelectionRange(at, at);
    caretDigits.current = null;
  }, [shown]);

  return (
    <Field
      ref={input}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      value={shown}
      onValue={(raw) => {
        const caret = input.current?.selectionStart ?? raw.length;
        caretDigits.current = caret >= raw.length ? null : digitsBefore(raw, caret);
        onValue(normalizePhone(raw));
      }}
      {...field}
    />
  );
};

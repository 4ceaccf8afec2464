/** Inline validation with the spec's rules (§5), worded from the error catalogue. */
import { checks } from '@edupass/protocol';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export type Rule = keyof typeof checks;

/** The sentence for `value` failing `rule`, or null. */
export const useRuleError = () => {
  const { errorText } = useI18n();
  return (rule: Rule, value: unknown): string | null => {
    const failure = checks[rule](value);
    return failure ? errorText(failure) : null;
  };
};

/**
 * Which fields to judge: a field is judged once it has lost focus with something in it, or once the
 * form was submitted, so nobody is told off for a phone number they are still typing.
 */
export const useTouched = () => {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  return {
    shown: (name: string) => submitted || touched.has(name),
    blur: (name: string) => () => setTouched((before) => new Set(before).add(name)),
    submit: () => setSubmitted(true),
    reset: () => {
      setTouched(new Set());
      setSubmitted(false);
    },
  };
};

/**
 * A form's submit or a button's change: busy while running, the error as a human sentence, a notice on
 * success. The web client's and the operator console's one hook; its words come from `KitTexts`.
 *
 * An error about one input (error-field.ts) is shown at that input when the form has it — bound with
 * `field(name)` — which is then marked invalid, described by the error and focused; anything else is
 * the form's error, above its button.
 */

import { ClientCode, type ClientCodeName, clientCodeName } from '@edupass/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type FormField, fieldOfError } from './error-field.ts';
import { useKitTexts } from './kit-texts.tsx';
import { troubleOf } from './network-trouble.ts';

const isInvalidRequest = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === ClientCode.INVALID_REQUEST;

/** What `field(name)` gives an input: its server error, a ref to find and focus it, and a clear on edit. */
export interface BoundField {
  error: string | null;
  /** The catalogue name of the error shown, for an input that words some errors its own way. */
  code?: ClientCodeName | undefined;
  ref(element: HTMLElement | null): void;
  onInput(): void;
}

export interface Action {
  busy: boolean;
  /** The form's own error (one no bound input took). */
  error: string | null;
  notice: string | null;
  /**
   * Runs `work`; its resolved string (if any) becomes the notice. Resolves whether it succeeded (false
   * when it failed, or when ignored while busy).
   */
  run(work: () => Promise<unknown>): Promise<boolean>;
  /**
   * Runs the failed work again, when it failed for the network's or the server's sake (null otherwise):
   * the form's retry button.
   */
  retry: (() => void) | null;
  setError(message: string | null): void;
  /** Shows `error` at its input if the form has it, else as the form's error. */
  fail(error: unknown): void;
  /** Shows `error` at its input if the form has it (true), leaving the form's error alone otherwise. */
  claim(error: unknown): boolean;
  /** Binds an input to the errors about `name`; spread on a Field (or any input, select, textarea). */
  field(name: FormField): BoundField;
  /** Moves focus to the first input of the form marked invalid (in page order); false when none is. */
  focusFirstInvalid(): boolean;
}

/** The first of `elements` in page order. */
const firstInPage = (elements: HTMLElement[]) =>
  elements.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];

/** `errorText` turns a failure into the sentence shown; by default the app's (`KitTexts`). */
export const useAction = (errorText?: (error: unknown) => string): Action => {
  const texts = useKitTexts();
  const describe = errorText ?? texts.errorText;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{
    field: FormField;
    message: string;
    code: ClientCodeName | undefined;
  } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failed, setFailed] = useState<(() => Promise<unknown>) | null>(null);
  const running = useRef(false);
  const inputs = useRef(new Map<FormField, HTMLElement>());
  const focusNext = useRef<HTMLElement | null>(null);
  // After the render that marks the input invalid, so the error is read out with it.
  useEffect(() => {
    if (fieldError === null || focusNext.current === null) return;
    focusNext.current.focus();
    focusNext.current = null;
  }, [fieldError]);

  const claim = useCallback(
    (caught: unknown): boolean => {
      const field = fieldOfError(caught);
      const input = field === undefined ? undefined : inputs.current.get(field);
      if (field === undefined || input === undefined || !input.isConnected) return false;
      const own = errorText === undefined && isInvalidRequest(caught) ? texts.invalidFieldText?.(field) : undefined;
      const code = clientCodeName((caught as { code: number }).code);
      setFieldError({ field, message: own ?? describe(caught), code });
      setError(null);
      focusNext.current = input;
      return true;
    },
    [describe, errorText, texts],
  );
  const fail = useCallback(
    (caught: unknown) => {
      if (!claim(caught)) setError(describe(caught));
    },
    [claim, describe],
  );

  const run = useCallback(
    async (work: () => Promise<unknown>) => {
      if (running.current) return false;
      running.current = true;
      setBusy(true);
      setError(null);
      setFieldError(null);
      setNotice(null);
      setFailed(null);
      try {
        const result = await work();
        if (typeof result === 'string') setNotice(result);
        return true;
      } catch (caught) {
        fail(caught);
        if (troubleOf(caught)) setFailed(() => work);
        return false;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [fail],
  );

  const refs = useRef(new Map<FormField, (element: HTMLElement | null) => void>());
  const field = (name: FormField): BoundField => {
    let ref = refs.current.get(name);
    if (ref === undefined) {
      ref = (element: HTMLElement | null) => {
        if (element) inputs.current.set(name, element);
        else inputs.current.delete(name);
      };
      refs.current.set(name, ref);
    }
    return {
      error: fieldError?.field === name ? fieldError.message : null,
      code: fieldError?.field === name ? fieldError.code : undefined,
      ref,
      onInput: () => setFieldError((shown) => (shown?.field === name ? null : shown)),
    };
  };

  const focusFirstInvalid = useCallback(() => {
    const invalid = [...inputs.current.values()].filter(
      (input) => input.isConnected && input.getAttribute('aria-invalid') === 'true',
    );
    const first = firstInPage(invalid);
    first?.focus();
    return first !== undefined;
  }, []);

  const setFormError = useCallback((message: string | null) => {
    setError(message);
    setFieldError(null);
  }, []);

  const retry = failed && error ? () => void run(failed) : null;
  return { busy, error, notice, run, retry, setError: setFormError, fail, claim, field, focusFirstInvalid };
};

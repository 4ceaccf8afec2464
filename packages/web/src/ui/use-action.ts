/**
 * A form's submit or a button's change: busy while running, the error as a human sentence, a notice on
 * success. The web client's and the operator console's one hook; the console passes its own `errorText`.
 */
import { useCallback, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export interface Action {
  busy: boolean;
  error: string | null;
  notice: string | null;
  /**
   * Runs `work`; its resolved string (if any) becomes the notice. Resolves whether it succeeded (false
   * when it failed, or when ignored while busy).
   */
  run(work: () => Promise<unknown>): Promise<boolean>;
  setError(message: string | null): void;
  /** Shows `error` as the form's error. */
  fail(error: unknown): void;
}

/** `errorText` turns a failure into the sentence shown; by default the web client's translations. */
export const useAction = (errorText?: (error: unknown) => string): Action => {
  const web = useI18n();
  const describe = errorText ?? web.errorText;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(
    async (work: () => Promise<unknown>) => {
      if (running.current) return false;
      running.current = true;
      setBusy(true);
      setError(null);
      setNotice(null);
      try {
        const result = await work();
        if (typeof result === 'string') setNotice(result);
        return true;
      } catch (caught) {
        setError(describe(caught));
        return false;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [describe],
  );
  const fail = useCallback((caught: unknown) => setError(describe(caught)), [describe]);
  return { busy, error, notice, run, setError, fail };
};

/** A form's submit: busy while running, the error as a human sentence, a notice on success. */
import { useCallback, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export interface Action {
  busy: boolean;
  error: string | null;
  notice: string | null;
  /** Runs `work`; its resolved string (if any) becomes the notice. Ignored while busy. */
  run(work: () => Promise<unknown>): Promise<void>;
  setError(message: string | null): void;
  /** Shows `error` as the form's error. */
  fail(error: unknown): void;
}

export const useAction = (): Action => {
  const { errorText } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(
    async (work: () => Promise<unknown>) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      setNotice(null);
      try {
        const result = await work();
        if (typeof result === 'string') setNotice(result);
      } catch (caught) {
        setError(errorText(caught));
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [errorText],
  );
  const fail = useCallback((caught: unknown) => setError(errorText(caught)), [errorText]);
  return { busy, error, notice, run, setError, fail };
};

/** A change an operator starts (a form sent, a button pressed): busy while it runs, then its notice or its error. */
import { useCallback, useState } from 'react';

export interface Action {
  busy: boolean;
  error: unknown;
  /** What the last change that succeeded did; '' otherwise. */
  notice: string;
  /** Runs `action`; resolves true when it succeeded (and `done` is the notice), false when it failed. */
  run(action: () => Promise<unknown>, done?: string): Promise<boolean>;
}

export const useAction = (): Action => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState('');
  const run = useCallback(async (action: () => Promise<unknown>, done = '') => {
    setBusy(true);
    setError(undefined);
    setNotice('');
    try {
      await action();
      setNotice(done);
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, notice, run };
};

/** Loads data for a screen: the value, the error as a sentence, and a reload. */
import { useCallback, useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export const useLoad = <T>(load: () => Promise<T>) => {
  const { errorText } = useI18n();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger; `load` is read fresh.
  useEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (live) {
          setData(value);
          setError(null);
        }
      },
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
  }, [version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error: error === null ? null : errorText(error), reload };
};

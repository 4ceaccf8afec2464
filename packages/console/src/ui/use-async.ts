/** Loads data for a screen: the answer, the error, and `reload`; stale answers of older calls are dropped. */
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data: T | undefined }
  | { status: 'done'; data: T }
  | { status: 'failed'; error: unknown; data: T | undefined };

export const useAsync = <T>(load: () => Promise<T>, deps: DependencyList): AsyncState<T> & { reload(): void } => {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading', data: undefined });
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load again
  useEffect(() => {
    let live = true;
    setState((s) => ({ status: 'loading', data: s.data }));
    latest.current().then(
      (data) => live && setState({ status: 'done', data }),
      (error: unknown) => live && setState((s) => ({ status: 'failed', error, data: s.data })),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
};

/**
 * Loads data for a screen: the answer, the error, and `reload`. The last answer stays while a reload
 * runs; answers of calls made before the latest one are dropped. Errors are kept as thrown: each app
 * turns them into its own language's sentence (`useLoadError` here, the console's `Failure`).
 */
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export type LoadState<T> =
  | { status: 'loading'; data: T | undefined }
  | { status: 'done'; data: T }
  | { status: 'failed'; error: unknown; data: T | undefined };

export type LoadResult<T> = LoadState<T> & { reload(): void };

/** Runs `load` on mount, again whenever a value in `deps` changes, and on `reload()`. */
export const useLoad = <T>(load: () => Promise<T>, deps: DependencyList = []): LoadResult<T> => {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading', data: undefined });
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps and `round` decide when to load again
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

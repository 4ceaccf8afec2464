/**
 * A list loaded a page at a time by a key: `more()` asks for the page after the last item, `reload()`
 * starts again from the first (on mount, and whenever a value in `deps` changes). Answers of calls made
 * before the latest one are dropped, so a late page of an older filter never joins the new list.
 */
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

/** One page: its items, and whether more follow them. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

export interface PagesState<T> {
  items: T[];
  /** No page follows the last one loaded. */
  done: boolean;
  loading: boolean;
  error: unknown;
}

export type PagesResult<T> = PagesState<T> & { more(): void; reload(): void };

/** `load(last)`: the page after `last`, or the first when it is undefined. */
export const usePages = <T>(
  load: (last: T | undefined) => Promise<Page<T>>,
  deps: DependencyList = [],
): PagesResult<T> => {
  const [state, setState] = useState<PagesState<T>>({ items: [], done: false, loading: true, error: undefined });
  const latest = useRef({ load, request: 0, items: [] as T[] });
  latest.current.load = load;

  const fetchPage = useCallback(async (first: boolean) => {
    const request = ++latest.current.request;
    const last = first ? undefined : latest.current.items.at(-1);
    // The list shown stays until the answer replaces it (a new filter's first page, say).
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const page = await latest.current.load(last);
      if (request !== latest.current.request) return;
      const items = first ? page.items : [...latest.current.items, ...page.items];
      latest.current.items = items;
      setState({ items, done: !page.more, loading: false, error: undefined });
    } catch (error) {
      if (request === latest.current.request) setState((s) => ({ ...s, loading: false, error }));
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to start again
  useEffect(() => {
    latest.current.items = [];
    void fetchPage(true);
  }, [...deps]);

  const more = useCallback(() => void fetchPage(latest.current.items.length === 0), [fetchPage]);
  const reload = useCallback(() => {
    latest.current.items = [];
    void fetchPage(true);
  }, [fetchPage]);
  return { ...state, more, reload };
};

/**
 * Calls `loadMore` when the end of a list comes within `distance` pixels of the bottom of the screen,
 * checking on scroll and resize at most every INFINITE_SCROLL.throttleMs.
 */
import { INFINITE_SCROLL } from '@edupass/protocol';
import { type RefObject, useEffect, useRef } from 'react';
import { throttle } from './throttle.ts';

export interface InfiniteScrollOptions {
  /** Whether there is more to load; nothing is asked for when false. */
  hasMore: boolean;
  /** Called when the sentinel nears the screen; it is not called again while it is still running. */
  loadMore(): void | Promise<void>;
  /** @default INFINITE_SCROLL.distance (0) */
  distance?: number;
  /** @default INFINITE_SCROLL.throttleMs (200) */
  throttleMs?: number;
}

/** Returns the ref to put on an element after the list's last item. */
export const useInfiniteScroll = <E extends HTMLElement>({
  hasMore,
  loadMore,
  distance = INFINITE_SCROLL.distance,
  throttleMs = INFINITE_SCROLL.throttleMs,
}: InfiniteScrollOptions): RefObject<E | null> => {
  const sentinel = useRef<E>(null);
  const latest = useRef(loadMore);
  latest.current = loadMore;
  const busy = useRef(false);

  useEffect(() => {
    if (!hasMore) return;
    let active = true;
    const check = throttle(() => {
      const element = sentinel.current;
      if (!active || !element || busy.current) return;
      if (element.getBoundingClientRect().top - window.innerHeight > distance) return;
      busy.current = true;
      Promise.resolve(latest.current()).finally(() => {
        busy.current = false;
        // The new items may still leave the end in view.
        if (active) check.run();
      });
    }, throttleMs);
    check.run();
    window.addEventListener('scroll', check.run, { passive: true });
    window.addEventListener('resize', check.run, { passive: true });
    return () => {
      active = false;
      check.cancel();
      window.removeEventListener('scroll', check.run);
      window.removeEventListener('resize', check.run);
    };
  }, [hasMore, distance, throttleMs]);

  return sentinel;
};

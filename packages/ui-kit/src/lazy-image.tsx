/**
 * An image loaded when it comes within LAZY_IMAGE.preloadScreens screens of view (checked on scroll
 * and resize, throttled to LAZY_IMAGE.throttleMs), tried LAZY_IMAGE.attempts times, with a fallback.
 */
import { LAZY_IMAGE } from '@edupass/protocol';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { throttle } from './throttle.ts';

export interface LazyImageProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  /** Shown before loading, when there is no `src`, and after the last failed attempt. */
  fallback: ReactNode;
  /** @default LAZY_IMAGE.preloadScreens */
  preloadScreens?: number;
  /** @default LAZY_IMAGE.attempts */
  attempts?: number;
}

/** Whether `element` is within `screens` viewport heights of the top of the screen. */
export const isNearView = (element: Element, screens: number): boolean => {
  const rect = element.getBoundingClientRect();
  return rect.top < window.innerHeight * screens && rect.bottom > 0 && rect.right > 0 && rect.left < window.innerWidth;
};

interface Phase {
  kind: 'waiting' | 'loading' | 'loaded' | 'failed';
  attempt: number;
}

export const LazyImage = ({
  src,
  alt,
  width,
  height,
  className,
  fallback,
  preloadScreens = LAZY_IMAGE.preloadScreens,
  attempts = LAZY_IMAGE.attempts,
}: LazyImageProps) => {
  const holder = useRef<HTMLSpanElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'waiting', attempt: 0 });

  useEffect(() => {
    setPhase({ kind: 'waiting', attempt: 0 });
    if (!src) return;
    const check = throttle(() => {
      if (holder.current && isNearView(holder.current, preloadScreens)) {
        setPhase((current) => (current.kind === 'waiting' ? { kind: 'loading', attempt: 1 } : current));
      }
    }, LAZY_IMAGE.throttleMs);
    check.run();
    window.addEventListener('scroll', check.run, { passive: true });
    window.addEventListener('resize', check.run, { passive: true });
    return () => {
      check.cancel();
      window.removeEventListener('scroll', check.run);
      window.removeEventListener('resize', check.run);
    };
  }, [src, preloadScreens]);

  const showImage = src && (phase.kind === 'loading' || phase.kind === 'loaded');
  return (
    <span ref={holder} className={`lazy-image ${className ?? ''}`} style={{ width, height }}>
      {showImage ? (
        <img
          // A new element and URL per attempt make the browser really fetch again.
          key={phase.attempt}
          src={phase.attempt > 1 ? `${src}${src.includes('?') ? '&' : '?'}attempt=${phase.attempt}` : src}
          alt={alt}
          width={width}
          height={height}
          decoding="async"
          hidden={phase.kind !== 'loaded'}
          onLoad={() => setPhase((current) => ({ ...current, kind: 'loaded' }))}
          onError={() =>
            setPhase((current) =>
              current.kind === 'loading' && current.attempt < attempts
                ? { kind: 'loading', attempt: current.attempt + 1 }
                : { ...current, kind: 'failed' },
            )
          }
        />
      ) : null}
      {phase.kind === 'loaded' ? null : fallback}
    </span>
  );
};

/** A screen's frame: its heading (where focus lands after navigation) and content. */
import { type ReactNode, useEffect, useRef } from 'react';
import { takeFocusRequest } from '../router/focus.ts';

/** Focuses the heading when the screen appears after a navigation. */
export const useHeadingFocus = () => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocusRequest()) heading.current?.focus();
  }, []);
  return heading;
};

export const Screen = ({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) => {
  const heading = useHeadingFocus();
  return (
    <section className={`panel${wide ? ' wide' : ''}`} aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
};

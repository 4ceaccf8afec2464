/** An in-app link: a real <a href> (open in new tab works), navigating through the History API. */
import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../router/history.ts';

export const Link = ({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) => (
  <a
    href={href}
    onClick={(event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(href);
    }}
    {...rest}
  />
);

/**
 * The web client's failed load (`useLoad`, or a page of `usePages`), as the props of `FormError`: the sentence (null while it
 * has not failed) and, when the network or the server failed it, a retry that loads it again.
 */

import { troubleOf } from '@edupass/ui-kit/network-trouble.ts';
import type { LoadResult } from '@edupass/ui-kit/use-load.ts';
import type { PagesResult } from '@edupass/ui-kit/use-pages.ts';
import { useI18n } from '../i18n/i18n.ts';

export const useLoadError = (
  state: LoadResult<unknown> | PagesResult<unknown>,
): { message: string | null; onRetry: (() => void) | null } => {
  const { errorText } = useI18n();
  const failed = 'status' in state ? (state.status === 'failed' ? state : undefined) : undefined;
  const error = failed ? failed.error : 'status' in state ? undefined : state.error;
  if (error === undefined) return { message: null, onRetry: null };
  // A page that failed is asked for again; a load, loaded again.
  const retry = 'status' in state ? state.reload : state.more;
  return { message: errorText(error), onRetry: troubleOf(error) ? retry : null };
};

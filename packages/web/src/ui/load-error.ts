/**
 * The web client's failed load (`useLoad`), as the props of `FormError`: the sentence (null while it
 * has not failed) and, when the network or the server failed it, a retry that loads it again.
 */

import { troubleOf } from '@edupass/ui-kit/network-trouble.ts';
import type { LoadResult } from '@edupass/ui-kit/use-load.ts';
import { useI18n } from '../i18n/i18n.ts';

export const useLoadError = (state: LoadResult<unknown>): { message: string | null; onRetry: (() => void) | null } => {
  const { errorText } = useI18n();
  if (state.status !== 'failed') return { message: null, onRetry: null };
  return { message: errorText(state.error), onRetry: troubleOf(state.error) ? state.reload : null };
};

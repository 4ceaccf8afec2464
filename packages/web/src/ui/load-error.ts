/** The web client's sentence for a failed load (`useLoad`), or null while it has not failed. */
import { useI18n } from '../i18n/i18n.ts';
import type { LoadState } from './use-load.ts';

export const useLoadError = (state: LoadState<unknown>): string | null => {
  const { errorText } = useI18n();
  return state.status === 'failed' ? errorText(state.error) : null;
};

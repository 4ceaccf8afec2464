/**
 * Loading and failed loads, announced to screen readers. A change's error and notice are the UI kit's
 * `FormError` and `Notice` (@edupass/ui-kit/status.tsx).
 */

import type { LoadResult } from '@edupass/ui-kit/use-load.ts';
import type { ReactNode } from 'react';
import { useConsoleText } from '../i18n/i18n.ts';

export const Loading = () => {
  const { t } = useConsoleText();
  return (
    <p className="console-muted" role="status">
      {t('loading')}
    </p>
  );
};

export const Failure = ({ error, retry }: { error: unknown; retry?: () => void }) => {
  const { t, errorText } = useConsoleText();
  return (
    <div className="console-alert" role="alert">
      <strong>{t('error.title')}</strong> <span>{errorText(error)}</span>
      {retry ? (
        <button type="button" className="console-button console-button-quiet" onClick={retry}>
          {t('error.retry')}
        </button>
      ) : null}
    </div>
  );
};

/** Loaded data: the failure (with a retry), the loading note before the first answer, then `children`. */
export const Loaded = <T,>({ state, children }: { state: LoadResult<T>; children(data: T): ReactNode }) => (
  <>
    {state.status === 'failed' ? <Failure error={state.error} retry={state.reload} /> : null}
    {state.data === undefined ? state.status === 'loading' ? <Loading /> : null : children(state.data)}
  </>
);

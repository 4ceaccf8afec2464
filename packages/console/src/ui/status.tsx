/**
 * Loading and failed loads, announced to screen readers, and the end of a list loaded a page at a time. A change's error and notice are the UI kit's
 * `FormError` and `Notice` (@edupass/ui-kit/status.tsx).
 */

import type { LoadResult } from '@edupass/ui-kit/use-load.ts';
import type { PagesResult } from '@edupass/ui-kit/use-pages.ts';
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

/**
 * The end of a list loaded a page at a time (`usePages`): the failure (with a retry), the loading note,
 * `end` (or `none` for an empty list) once nothing follows, else the Load more button.
 */
export const PageEnd = <T,>({
  pages,
  end,
  none,
  more,
}: {
  pages: PagesResult<T>;
  end: string;
  /** @default end */
  none?: string;
  more: string;
}) => (
  <>
    {pages.error ? <Failure error={pages.error} retry={pages.more} /> : null}
    {pages.loading ? <Loading /> : null}
    {!pages.loading && pages.done ? (
      <p className="console-muted" role="status">
        {pages.items.length === 0 ? (none ?? end) : end}
      </p>
    ) : null}
    {!pages.loading && !pages.done && !pages.error ? (
      <button type="button" className="console-button" onClick={pages.more}>
        {more}
      </button>
    ) : null}
  </>
);

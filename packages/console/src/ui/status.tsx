/** Loading, error and success messages, announced to screen readers. */
import type { ReactNode } from 'react';
import { isConsoleApiError } from '../api/console-error.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import type { AsyncState } from './use-async.ts';

const errorMessage = (error: unknown): string =>
  isConsoleApiError(error)
    ? `${error.message} (${error.code})`
    : error instanceof Error
      ? error.message
      : String(error);

export const Loading = () => {
  const { t } = useConsoleText();
  return (
    <p className="console-muted" role="status">
      {t('loading')}
    </p>
  );
};

export const Failure = ({ error, retry }: { error: unknown; retry?: () => void }) => {
  const { t } = useConsoleText();
  return (
    <div className="console-alert" role="alert">
      <strong>{t('error.title')}</strong> <span>{errorMessage(error)}</span>
      {retry ? (
        <button type="button" className="console-button console-button-quiet" onClick={retry}>
          {t('error.retry')}
        </button>
      ) : null}
    </div>
  );
};

export const Notice = ({ text }: { text: string }) =>
  text ? (
    <p className="console-notice" role="status">
      {text}
    </p>
  ) : (
    <p className="console-visually-hidden" role="status" />
  );

/** A failed change's error, or nothing. */
export const ErrorAlert = ({ error }: { error: unknown }) =>
  error ? (
    <p className="console-alert" role="alert">
      {errorMessage(error)}
    </p>
  ) : null;

/** Loaded data: the failure (with a retry), the loading note before the first answer, then `children`. */
export const Loaded = <T,>({
  state,
  children,
}: {
  state: AsyncState<T> & { reload(): void };
  children(data: T): ReactNode;
}) => (
  <>
    {state.status === 'failed' ? <Failure error={state.error} retry={state.reload} /> : null}
    {state.data === undefined ? state.status === 'loading' ? <Loading /> : null : children(state.data)}
  </>
);

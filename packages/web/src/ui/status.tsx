/**
 * The outcome of a form: an error (announced at once) or a notice (announced politely). An error the
 * network or the server caused comes with a retry (`onRetry`): the one treatment of "cannot reach the
 * server" every screen shares.
 */
import { useI18n } from '../i18n/i18n.ts';

export interface FormErrorProps {
  message: string | null;
  /** Runs again what failed; given when the failure was the network's or the server's. */
  onRetry?: (() => void) | null | undefined;
  className?: string;
}

export const FormError = ({ message, onRetry, className = 'form-error' }: FormErrorProps) => {
  const { t } = useI18n();
  if (!message) return null;
  if (!onRetry) {
    return (
      <p className={className} role="alert">
        {message}
      </p>
    );
  }
  return (
    <div className={`${className} trouble`} role="alert">
      <p>{message}</p>
      <button type="button" className="button secondary retry" onClick={onRetry}>
        {t('trouble.retry')}
      </button>
    </div>
  );
};

export const Notice = ({ message }: { message: string | null }) => (
  <p className="notice" role="status" hidden={!message}>
    {message}
  </p>
);

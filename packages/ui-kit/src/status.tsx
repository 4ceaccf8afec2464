/**
 * The outcome of a form: an error (announced at once) or a notice (announced politely). An error the
 * network or the server caused comes with a retry (`onRetry`): the one treatment of "cannot reach the
 * server" every screen shares.
 */
import { useKitTexts } from './kit-texts.tsx';

export interface FormErrorProps {
  message: string | null;
  /** Runs again what failed; given when the failure was the network's or the server's. */
  onRetry?: (() => void) | null | undefined;
  className?: string;
}

export const FormError = ({ message, onRetry, className = 'form-error' }: FormErrorProps) => {
  const { retry } = useKitTexts();
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
        {retry}
      </button>
    </div>
  );
};

export const Notice = ({ message }: { message: string | null }) => (
  <p className="notice" role="status" hidden={!message}>
    {message}
  </p>
);

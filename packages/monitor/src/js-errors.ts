/** JS errors and unhandled rejections (§7), as message plus stack (or source position). Returns the undo. */
import { getWindow } from './globals.ts';

export type ErrorReport = (message: string, stack: string) => void;

const describe = (value: unknown): [string, string] => {
  const error = value as { message?: unknown; stack?: unknown } | null;
  return typeof error?.message === 'string'
    ? [error.message, typeof error.stack === 'string' ? error.stack : '']
    : [String(value), ''];
};

export const watchErrors = (report: ErrorReport): (() => void) => {
  const win = getWindow();
  const onError = (event: Event | ErrorEvent) => {
    // Failed <img>/<script> loads also reach window "error", but as plain Events without a message.
    if (!('message' in event)) return;
    const [message, stack] = event.error ? describe(event.error) : [event.message, ''];
    report(message || event.message, stack || `${event.filename}:${event.lineno}:${event.colno}`);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    const [message, stack] = describe(event.reason);
    report(`Unhandled rejection: ${message}`, stack);
  };
  win?.addEventListener('error', onError);
  win?.addEventListener('unhandledrejection', onRejection);
  return () => {
    win?.removeEventListener('error', onError);
    win?.removeEventListener('unhandledrejection', onRejection);
  };
};

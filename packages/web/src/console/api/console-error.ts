/** A failed console call: the server's catalogue code when it sent one, and its message. */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';
  constructor(
    readonly status: number,
    /** The server code (`E_4`, `AC3_44`…), or `NETWORK` when no answer came. */
    readonly code: string,
    message: string,
    /** The answer's body (E_11 carries the sign-in's second-factor challenge in it). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export const isConsoleApiError = (value: unknown): value is ConsoleApiError => value instanceof ConsoleApiError;

/** The catalogue's wire error, or a generic one for anything else. */
export const errorFromAnswer = (status: number, body: unknown): ConsoleApiError => {
  const wire = (body ?? {}) as { error_code?: unknown; error_message?: unknown };
  const code = typeof wire.error_code === 'string' ? wire.error_code : `HTTP_${status}`;
  const message = typeof wire.error_message === 'string' ? wire.error_message : `HTTP ${status}`;
  return new ConsoleApiError(status, code, message, body);
};

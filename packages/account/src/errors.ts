/**
 * The SDK's one error class. Every failed call rejects with an `AuthError`: validation failures before a
 * request, timeouts, network failures and server answers alike.
 */
import {
  type ClientCodeName,
  CoreCode,
  type CoreCodeName,
  coreCodeName,
  type RuleFailure,
  readWireError,
  SERVER_CODE_NUMBERS,
} from '@edupass/protocol';

export interface AuthErrorDetails {
  /** The server's `error_code` (`AC3_2`, `10000000`, …), passed through even when unknown. */
  serverCode?: string;
  /** HTTP status of the answer. */
  status?: number;
  /** The raw answer body (parsed JSON, or text when it was not JSON). */
  body?: unknown;
  cause?: unknown;
}

export class AuthError extends Error {
  // Declared, not defined, fields: assigned once in the constructor, and no class-field helpers in bundles
  // for older targets.
  /** The client code number of the catalogue (`ClientCode`). */
  declare readonly code: number;
  /**
   * The catalogue name (`USER_NOT_EXIST_OR_WRONG_PASSWORD`, …), or the server's code when it is unknown.
   * The main entry names the core codes (0–75); a code of the education and staff group (76 on: E_18 …)
   * carries its catalogue name from `./custom-calls`, which calls those routes, and its server code
   * (`E_21`) from the other entries: `code` is the catalogue number either way.
   */
  declare readonly name: ClientCodeName | (string & {});
  declare readonly serverCode: string | undefined;
  declare readonly status: number | undefined;
  declare readonly body: unknown;

  constructor(code: number, message: string, details: AuthErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    // `details` as given (serverCode, status, body; cause again, as Error itself keeps it): fields it
    // lacks read as undefined all the same.
    Object.assign(this, details, { code, name: coreCodeName(code) ?? details.serverCode ?? 'SERVER_ERROR' });
  }
}

export const isAuthError = (value: unknown): value is AuthError => value instanceof AuthError;

export const authError = (name: CoreCodeName, message: string, details?: AuthErrorDetails): AuthError =>
  new AuthError(CoreCode[name], message, details);

/** Throws the first failed validation rule, if any. */
export const assertValid = (...results: (RuleFailure | null)[]): void => {
  for (const failure of results) if (failure) throw new AuthError(failure.code, failure.message);
};

/**
 * Turns a non-2xx answer into an `AuthError`. The client code is the wire's `error_number` when the
 * catalogue knows it, else the catalogue's mapping of `error_code` (servers that send only `error_code`);
 * an unknown code is SERVER_ERROR with the code and raw body passed through, as is an answer without
 * the error shape.
 */
export const fromResponse = (status: number, body: unknown): AuthError => {
  const wire = readWireError(body, SERVER_CODE_NUMBERS, CoreCode.SERVER_ERROR);
  if (wire?.serverCode !== undefined) {
    return new AuthError(wire.code, wire.message ?? wire.serverCode, { serverCode: wire.serverCode, status, body });
  }
  return authError('SERVER_ERROR', `HTTP ${status}`, { status, body });
};

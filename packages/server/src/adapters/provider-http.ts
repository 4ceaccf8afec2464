/** HTTP to an outside provider: a time limit on every call, and failures that say what happened. */
import { isRecord } from '@edupass/protocol';

export { isRecord };

export interface ProviderAnswer {
  status: number;
  text: string;
}

/** The provider could not be reached or did not answer in time. */
export class ProviderUnreachableError extends Error {
  constructor(
    readonly timedOut: boolean,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProviderUnreachableError';
  }
}

export const fetchText = async (url: string, init: RequestInit, timeoutMs: number): Promise<ProviderAnswer> => {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const where = new URL(url).host;
    throw new ProviderUnreachableError(
      timedOut,
      timedOut ? `${where} did not answer within ${timeoutMs} ms` : `${where} could not be reached`,
      { cause: error },
    );
  }
};

/** JSON text as an object, or undefined when it is not a JSON object. */
export const jsonObject = (text: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

export const stringField = (object: Record<string, unknown>, key: string): string | undefined => {
  const value = object[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
};

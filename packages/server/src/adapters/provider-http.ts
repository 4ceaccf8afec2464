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

/**
 * One call to a provider. Its redirects are not followed: fetch would send a POST's body (a client
 * secret, a code, an SMS gateway's signed request) again to whatever address the answer names, over
 * plain http too, and no provider's API answers with a redirect. Such an answer is an outage that
 * names where it pointed, so the operator can configure that address if it is the provider's.
 */
export const fetchText = async (url: string, init: RequestInit, timeoutMs: number): Promise<ProviderAnswer> => {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status < 300 || response.status > 399) return { status: response.status, text: await response.text() };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const where = new URL(url).host;
    throw new ProviderUnreachableError(
      timedOut,
      timedOut ? `${where} did not answer within ${timeoutMs} ms` : `${where} could not be reached`,
      { cause: error },
    );
  }
  await response.body?.cancel();
  const location = response.headers.get('location') ?? '(no Location)';
  throw new ProviderUnreachableError(
    false,
    `${new URL(url).host} answered HTTP ${response.status} to ${location.slice(0, 200)}: redirects of a provider are not followed; configure the address it names if it is the provider's`,
  );
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

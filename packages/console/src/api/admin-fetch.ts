/**
 * The console's one HTTP helper: the operator's bearer token, JSON both ways, catalogue errors as
 * ConsoleApiError. An expired access token is refreshed once; an ended session signs the console out.
 */
import { ConsoleApiError, errorFromAnswer } from './console-error.ts';
import { dropSession, getConsoleSession, refreshSession } from './session.ts';

export type Query = Record<string, string | number | undefined>;

export interface CallOptions {
  method?: 'GET' | 'POST';
  query?: Query;
  body?: unknown;
}

const withQuery = (path: string, query: Query | undefined) => {
  const entries = Object.entries(query ?? {}).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`;
};

/** Access token expired (10000000): worth one refresh. */
const EXPIRED = '10000000';
/** The session is gone (ended, blocked, revoked): sign the console out. */
const ENDED = new Set(['E_0', 'AC3_44', '10000001', '10000002']);

const send = async (path: string, options: CallOptions): Promise<Response> => {
  const token = getConsoleSession()?.access;
  try {
    return await fetch(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ConsoleApiError(0, 'NETWORK', 'The server could not be reached.');
  }
};

export const adminFetch = async (path: string, options: CallOptions = {}): Promise<unknown> => {
  let response = await send(path, options);
  let answer: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok && errorFromAnswer(response.status, answer).code === EXPIRED && (await refreshSession())) {
    response = await send(path, options);
    answer = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  }
  if (response.ok) return answer;
  const error = errorFromAnswer(response.status, answer);
  if (ENDED.has(error.code) || error.code === EXPIRED) dropSession();
  throw error;
};

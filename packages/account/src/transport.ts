/**
 * The SDK's one HTTP helper: JSON over fetch with credentials, the standard headers, a timeout, and
 * every failure turned into an `AuthError`.
 */
import { NETWORK_MESSAGE, SDK_ACCOUNT_VERSION, timeoutMessage, type WireRoute } from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { authError, fromResponse } from './errors.ts';
import { effectiveConnectionType } from './globals.ts';
import { baseUrl } from './hosts.ts';
import { buildQuery } from './query.ts';

export interface Request {
  route: Pick<WireRoute, 'method' | 'path' | 'host' | 'auth'>;
  body?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  headers?: Record<string, string | undefined> | undefined;
}

export interface Reply {
  status: number;
  /** Parsed JSON; `undefined` for an empty answer (204). */
  data: unknown;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Headers every call carries (spec §3), dropping those the config leaves unset. */
const standardHeaders = ({ config }: AccountClient): Record<string, string | undefined> => ({
  Accept: 'application/json',
  'Content-Type': 'application/json',
  'Product-Code': String(config.product_code),
  pid: config.pid,
  Platform: String(config.platform),
  'Auth-Version': config.auth_version === undefined ? undefined : String(config.auth_version),
  'Client-ID': config.client_id,
  'SDK-Account-Version': SDK_ACCOUNT_VERSION,
  Net: effectiveConnectionType(),
});

export const send = async (client: AccountClient, request: Request): Promise<Reply> => {
  const { config } = client;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...standardHeaders(client), ...request.headers })) {
    if (value !== undefined) headers[name] = value;
  }
  const url = baseUrl(config, request.route.host) + request.route.path + buildQuery(request.query);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.requestTimeout);
  let status: number;
  let text: string;
  try {
    const response = await (config.fetch ?? fetch)(url, {
      method: request.route.method,
      credentials: 'include',
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: controller.signal,
    });
    status = response.status;
    // Read under the same timer: a server that stalls mid-body is as stuck as one that never answers.
    text = await response.text();
  } catch (cause) {
    throw timedOut
      ? authError('REQUEST_TIMEOUT', timeoutMessage(config.requestTimeout), { cause })
      : authError('REQUEST_ERROR', NETWORK_MESSAGE, { cause });
  } finally {
    clearTimeout(timer);
  }
  const data = text === '' ? undefined : parse(text);
  if (status < 200 || status > 299) throw fromResponse(status, data);
  return { status, data };
};

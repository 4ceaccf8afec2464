/** A small JSON client for server tests: every answer with its status, headers and parsed body. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  headers?: Record<string, string>;
  token?: string;
  /** Raw body, sent as is (for malformed-input tests). */
  raw?: string;
}

export const client = (baseUrl: string) => {
  const call = async <T = unknown>(method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed as T, headers: response.headers } satisfies Answer<T>;
  };
  return call;
};

/** Every header of an answer but the date, which moves with the clock, sorted by name (to compare two answers). */
export const headersBesidesDate = (answer: { headers: Headers }) =>
  Object.fromEntries([...answer.headers].filter(([name]) => name !== 'date').sort(([a], [b]) => a.localeCompare(b)));

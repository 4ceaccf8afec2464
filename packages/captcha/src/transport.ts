/** How the SDK talks HTTP. The default uses `fetch` with credentials; tests and other runtimes pass their own. */

export interface HttpRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  /** Parsed JSON, or null when the answer had no JSON body. */
  body: unknown;
}

export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

export const fetchTransport: Transport = async (request) => {
  const controller = typeof AbortController === 'undefined' ? undefined : new AbortController();
  const timer = controller ? setTimeout(() => controller.abort(), request.timeoutMs) : undefined;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: JSON.stringify(request.body ?? {}),
      // Sites call the platform host across origins; the ticket flow relies on its cookies.
      credentials: 'include',
      ...(controller ? { signal: controller.signal } : {}),
    });
    const raw = await response.text();
    let body: unknown = null;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    return { status: response.status, body };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
};

/**
 * A local HTTP peer for unit tests that need precise control of answers (stalls, odd shapes, scripted
 * token failures). Tests against the real server use packages/server's harness instead.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Answer {
  status: number;
  body?: unknown;
  /** Sent as is instead of JSON. */
  raw?: string;
}

export type Handler = (request: Recorded) => Answer | 'stall' | Promise<Answer | 'stall'>;

export interface FakeApi {
  url: string;
  requests: Recorded[];
  /** Requests to one route (`'PUT /tiger/v3/web/accounts/tokens/refresh'`). */
  count(route: string): number;
  on(route: string, handler: Handler): void;
  close(): Promise<void>;
}

export const startFakeApi = async (handlers: Record<string, Handler> = {}): Promise<FakeApi> => {
  const routes = new Map(Object.entries(handlers));
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const handler = routes.get(`${recorded.method} ${recorded.path}`);
      const answer = handler ? await handler(recorded) : { status: 404, body: { error_code: 'E_2', error_number: 57 } };
      if (answer === 'stall') return;
      const payload = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
      res.writeHead(answer.status, answer.raw === undefined ? { 'content-type': 'application/json' } : {});
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (route) => requests.filter((r) => `${r.method} ${r.path}` === route).length,
    on: (route, handler) => {
      routes.set(route, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

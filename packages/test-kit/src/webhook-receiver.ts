/**
 * A site's webhook receiver for tests (node:http): records every request it is sent, answers 204,
 * and can go down (its port closed) and come back on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Stops listening: deliveries meet a refused connection. */
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

const closed = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const received: Received[] = [];
  const make = () =>
    createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
  let server = make();
  await listen(server, 0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    goDown: () => closed(server),
    async comeBack() {
      server = make();
      await listen(server, port);
    },
    close: () => closed(server),
  };
};

export interface VerifiedEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * Waits (up to 30 s: deliveries are slow on a loaded machine) until `count` deliveries arrived, then
 * checks each one's signature with the endpoint's secret and answers the events, in arrival order.
 */
export const verifiedEvents = async (receiver: WebhookReceiver, secret: string, count: number) => {
  await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(count);
  const verifier = new Webhook(secret.replace(/^whsec_/, ''));
  return receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as VerifiedEvent);
};

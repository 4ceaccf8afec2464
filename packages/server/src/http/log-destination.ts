/**
 * Where the server's log goes when no stream is given: stdout, written asynchronously. pino's default
 * destination makes one blocking write(2) per line, two lines per request at LOG_LEVEL=info, which
 * was the largest single cost of a profile read (bench/server). Asynchronously, lines that arrive
 * while a write is under way are queued and written together. What is queued is written when the
 * server closes (below) and when the process exits (pino registers that for such a destination);
 * only a SIGKILL can lose it.
 */
import type { FastifyInstance } from 'fastify';
import pino from 'pino';

export type LogDestination = ReturnType<typeof pino.destination>;

export const asyncStdout = (): LogDestination => pino.destination({ dest: 1, sync: false });

/** Writes what the destination still holds before the server's close resolves. */
export const flushOnClose = (app: FastifyInstance, destination: LogDestination) =>
  app.addHook('onClose', async function flushLog() {
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
  });

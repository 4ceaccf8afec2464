/**
 * Where the server's log goes when no stream is given: stdout, written asynchronously and in batches.
 * pino's default destination makes one blocking write(2) per line, which was the largest single cost
 * of a profile read (bench/server). Asynchronously, lines that arrive while a write is under way are
 * queued and written together; still, at a few requests in flight nearly every line was a write of
 * its own, handed to a libuv thread (the log cost a card sign-in about a twentieth of its server CPU:
 * bench/district at LOG_LEVEL=info against warn). Lines are written once BATCH_BYTES have gathered,
 * and at the latest FLUSH_MS after they were logged, so a quiet server's lines still show at once to
 * whoever follows the log; a card sign-in then cost about 3 % less server CPU. What is queued is
 * written when the server closes (below) and when the process exits (pino registers that for such a
 * destination); only a SIGKILL can lose it, a fifth of a second of lines at the most.
 */
import type { FastifyInstance } from 'fastify';
import pino from 'pino';

export type LogDestination = ReturnType<typeof pino.destination>;

/** About a dozen request lines. */
const BATCH_BYTES = 4096;
const FLUSH_MS = 200;

export const asyncStdout = (): LogDestination =>
  pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES, periodicFlush: FLUSH_MS });

/** Writes what the destination still holds before the server's close resolves. */
export const flushOnClose = (app: FastifyInstance, destination: LogDestination) =>
  app.addHook('onClose', async function flushLog() {
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
  });

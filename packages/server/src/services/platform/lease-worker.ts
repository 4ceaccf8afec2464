/**
 * The loop of a worker that claims due rows under a lease and works on them (webhook deliveries,
 * back-channel logouts): passes run one after another in a process (a lease is the process's, so
 * two of its passes must not overlap); a pass is asked for when this process wrote new rows
 * (`wake`), and otherwise every `pollMs`, which is how it sees other processes' rows.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import type { Lease } from '../../store/lease.ts';

export interface LeaseWorker {
  /** A pass that starts after this call (it sees what the caller just wrote, and the clock as now). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export interface LeaseWork<T> {
  /** For the log. */
  name: string;
  pollMs: number;
  leaseMs: number;
  batch: number;
  claim(lease: Lease, limit: number): Promise<T[]>;
  attempt(holder: string, item: T): Promise<void>;
  /** Calls `run` when this process wrote new rows; answers how to stop listening. */
  wake?(run: () => void): () => void;
}

export const startLeaseWorker = <T>(ctx: Pick<Context, 'now' | 'logger'>, work: LeaseWork<T>): LeaseWorker => {
  const holder = randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Callers of `runOnce` waiting for a pass that starts after their call. */
  let waiting: ((attempted: number) => void)[] = [];
  /** The loop running passes one after another while anyone waits; undefined when idle. */
  let driving: Promise<void> | undefined;

  const pass = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const now = ctx.now();
      const claimed = await work.claim({ holder, now, until: now + work.leaseMs }, work.batch);
      await Promise.all(claimed.map((item) => work.attempt(holder, item)));
      total += claimed.length;
      if (claimed.length < work.batch || stopped) return total;
    }
  };
  const drive = async () => {
    while (waiting.length > 0) {
      const served = waiting;
      waiting = [];
      // Always awaited, so `driving` is set before this loop can end and clear it.
      const attempted = await (stopped
        ? Promise.resolve(0)
        : pass().catch((error: unknown) => {
            ctx.logger.error({ err: error }, `${work.name}: pass failed`);
            return 0;
          }));
      for (const done of served) done(attempted);
    }
    driving = undefined;
  };
  const runOnce = (): Promise<number> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      driving ??= drive();
    });
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().finally(schedule);
    }, work.pollMs);
    timer.unref();
  };
  const forget = work.wake?.(() => void runOnce());
  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      forget?.();
      clearTimeout(timer);
      await driving;
    },
  };
};

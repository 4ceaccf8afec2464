/**
 * What the audit's chain costs a write: audit rows written one by one as the server writes them
 * (`recordAudit`, linked under the chains' lock) against the same rows inserted plainly, each in its
 * own transaction, and the same under 8 writers at once; then `edupass audit verify` over them. On
 * embedded SQLite and on PostgreSQL (EDUPASS_BENCH_PG_URL, default the local server; a scratch
 * database is created and dropped). Prints the median of ROUNDS and the machine's load average.
 *
 *   node bench/audit-chain/run.mjs
 */
import { loadavg } from 'node:os';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { type Context, createContext } from '../../packages/server/src/context.ts';
import { verifyAuditChains } from '../../packages/server/src/services/admin/audit-verify.ts';
import { recordAudit } from '../../packages/server/src/store/admin/admin.ts';
import { onBothDatabases } from '../both-databases.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];

const ROWS = 2_000;
const WRITERS = 8;
const ROUNDS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const row = (i: number) => ({ operator_id: 1, action: 'bench.write', target: `user:${i}`, detail: '', at: Date.now() });

const plain = (ctx: Context, i: number) =>
  ctx.db.transaction().execute((tx) => tx.insertInto('admin_audit').values(row(i)).execute());
const chained = (ctx: Context, i: number) => recordAudit(ctx.db, ctx.keys.audit, row(i));

/** µs per row: ROWS writes by `writers` at once. */
const timed = async (ctx: Context, write: (ctx: Context, i: number) => Promise<unknown>, writers: number) => {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < ROWS) await write(ctx, next++);
    }),
  );
  return ((performance.now() - start) * 1000) / ROWS;
};

const run = async (label: string, databaseUrl: string) => {
  const ctx = await createContext(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }), silent);
  try {
    for (const writers of [1, WRITERS]) {
      const figures = { plain: [] as number[], chained: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        figures.plain.push(await timed(ctx, plain, writers));
        figures.chained.push(await timed(ctx, chained, writers));
      }
      const [p, c] = [median(figures.plain), median(figures.chained)];
      console.log(
        `${label}, ${writers} writer${writers > 1 ? 's' : ''}: plain ${p.toFixed(0)} µs/row, chained ${c.toFixed(0)} µs/row (×${(c / p).toFixed(2)})`,
      );
    }
    // Plain rows written after the chain began are what verify reports as slipped in: they go first.
    await ctx.db.deleteFrom('admin_audit').where('chain_seq', 'is', null).execute();
    const start = performance.now();
    const [audit] = await verifyAuditChains(ctx);
    console.log(
      `${label}: verify ${audit?.checked} links in ${(performance.now() - start).toFixed(0)} ms; broken: ${audit?.broken ? 'yes' : 'no'}`,
    );
  } finally {
    await ctx.close();
  }
};

await onBothDatabases('audit_chain', run);
console.log(
  `load average: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

/**
 * What PostgreSQL itself counted of one database's work, read from another database of the same
 * cluster (so the reading is not counted): statements from pg_stat_statements (the cluster must load
 * it: `startScratchPostgres(COUNTING_SETTINGS)`), transactions that wrote from the transaction ids
 * handed out (and which of their commits waited for the WAL to reach the disk, from the WAL each
 * statement wrote), and WAL from its insert position. All three move as the statements end, unlike
 * pg_stat_wal and pg_stat_database, which a connection reports up to ten seconds later. Used by the
 * statement-count test and by bench/district.
 */
import pg from 'pg';

/** A cluster that counts: pg_stat_statements loaded, commits synced to disk, no autovacuum writing WAL meanwhile. */
export const COUNTING_SETTINGS: Record<string, string> = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_utility': 'on',
  'pg_stat_statements.track_planning': 'on',
  fsync: 'on',
  synchronous_commit: 'on',
  autovacuum: 'off',
};

/** A statement that only reads (takes no transaction id: its commit waits for no WAL). */
const READ_ONLY = /^\s*select\b(?![\s\S]*\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b)/i;

/** Statements that only open or close a transaction: counted as commits, not as statements. */
const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|end|rollback|savepoint|release)\b/i;

export interface CounterSnapshot {
  calls: Map<string, { query: string; calls: number; plans: number; walRecords: number }>;
  nextXid: number;
  walLsn: string;
}

export interface CounterDelta {
  /** Statements run (not counting BEGIN, COMMIT and the like). */
  statements: number;
  /** BEGIN, COMMIT and the like: with `statements`, the round trips to the database. */
  transactionControl: number;
  /** Times PostgreSQL planned a statement (a prepared statement's kept generic plan is not planned again). */
  plans: number;
  /** Transactions that wrote (each took a transaction id). */
  writeCommits: number;
  /**
   * Of those, the commits that waited for their WAL to reach the disk: a transaction whose writes
   * were all to an UNLOGGED table (the limits' counters, migration 063) wrote no WAL and does not
   * wait. Counted per statement (the runs of a statement other than a read that wrote WAL records,
   * at most one per record): exact where each statement is its own transaction, as in the sign-in
   * flows (no BEGIN or COMMIT), never more than `writeCommits`.
   */
  walCommits: number;
  /** WAL records the statements wrote (commit records aside), and WAL bytes in all. */
  walRecords: number;
  walBytes: number;
  /** Each statement with how many times it ran, most first. */
  byStatement: { query: string; calls: number }[];
  /** `statements` less the server's background work that lands among them (`backgroundStatements`). */
  ownStatements: number;
}

/**
 * What a server runs on its own whatever the requests: the background workers' claims of their queues
 * (webhook deliveries, back-channel logouts, data exports: `update … set lease_holder`, store/lease.ts),
 * which land among a flow's statements more often the busier the host is, and the process's reload of
 * its signing keys (services/sessions/signing-keys.ts: every 5 s, three statements — the keys, and the
 * setting naming when the first asymmetric key was made, read or created).
 */
const backgroundStatements = (byStatement: CounterDelta['byStatement']) =>
  byStatement.reduce(
    (sum, s) =>
      sum + (/set lease_holder/.test(s.query) ? s.calls : /from "signing_keys"/.test(s.query) ? 3 * s.calls : 0),
    0,
  );

/**
 * A reader of `database`'s counters on the cluster at `clusterUrl` (any database of it: the reads
 * are made from there). `close` ends its connection.
 */
export const postgresCounters = async (clusterUrl: string, database: string) => {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  await client.query('create extension if not exists pg_stat_statements');

  const read = async (): Promise<CounterSnapshot> => {
    const statements = await client.query<{
      queryid: string;
      query: string;
      calls: string;
      plans: string;
      wal_records: string;
    }>(
      `select s.queryid::text, s.query, s.calls::text, s.plans::text, s.wal_records::text
         from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1`,
      [database],
    );
    const position = await client.query<{ xid: string; lsn: string }>(
      'select pg_snapshot_xmax(pg_current_snapshot())::text as xid, pg_current_wal_insert_lsn()::text as lsn',
    );
    const [row] = position.rows;
    if (row === undefined) throw new Error('no snapshot');
    return {
      calls: new Map(
        statements.rows.map((s) => [
          s.queryid,
          { query: s.query, calls: Number(s.calls), plans: Number(s.plans), walRecords: Number(s.wal_records) },
        ]),
      ),
      nextXid: Number(row.xid),
      walLsn: row.lsn,
    };
  };

  const since = async (before: CounterSnapshot): Promise<CounterDelta> => {
    const after = await read();
    const walBytes = await client.query<{ bytes: string }>('select pg_wal_lsn_diff($1, $2)::text as bytes', [
      after.walLsn,
      before.walLsn,
    ]);
    const byStatement: { query: string; calls: number }[] = [];
    let walRecords = 0;
    let plans = 0;
    let transactionControl = 0;
    let loggingRuns = 0;
    for (const [id, now] of after.calls) {
      const then = before.calls.get(id);
      const calls = now.calls - (then?.calls ?? 0);
      const records = now.walRecords - (then?.walRecords ?? 0);
      walRecords += records;
      // A read may write WAL too (pruning a page it reads) and waits for nothing at its commit.
      if (!READ_ONLY.test(now.query)) loggingRuns += Math.min(calls, records);
      plans += now.plans - (then?.plans ?? 0);
      if (calls > 0 && TRANSACTION_CONTROL.test(now.query)) transactionControl += calls;
      else if (calls > 0) byStatement.push({ query: now.query, calls });
    }
    byStatement.sort((a, b) => b.calls - a.calls);
    const statements = byStatement.reduce((sum, s) => sum + s.calls, 0);
    return {
      statements,
      transactionControl,
      ownStatements: statements - backgroundStatements(byStatement),
      plans,
      writeCommits: after.nextXid - before.nextXid,
      walCommits: Math.min(loggingRuns, after.nextXid - before.nextXid),
      walRecords,
      walBytes: Number(walBytes.rows[0]?.bytes ?? 0),
      byStatement,
    };
  };

  /**
   * WAL syncs of the whole cluster so far (pg_stat_wal): a connection reports its own when it ends or
   * up to ten seconds after its last transaction, so read it once the server's connections are closed.
   */
  const walSyncs = async () =>
    Number((await client.query<{ n: string }>('select wal_sync::text as n from pg_stat_wal')).rows[0]?.n);

  return { read, since, walSyncs, close: () => client.end() };
};

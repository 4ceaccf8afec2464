/** Opens the store: embedded SQLite from a file path, or PostgreSQL from a postgres:// URL. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl } from '../config/config.ts';
import { prepareStatementsOn } from './prepared-statements.ts';
import type { Database } from './schema.ts';
import { SealedRecords } from './sealed-records.ts';

export type Dialect = 'sqlite' | 'postgres';

/** The database a Kysely instance (or a transaction of one) speaks to. */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export const dialectOf = (db: Kysely<any>): Dialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL only: the pool's connections (a metric). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /** SQLite only: an online copy of the database to a file (pages copied). */
  backup?(file: string): Promise<number>;
  close(): Promise<void>;
}

// int8 (bigint) columns hold unix milliseconds, well inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

const STATEMENT_CACHE_SIZE = 500;

/** WAL pages (4 KB each) between automatic checkpoints. */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Kysely's SQLite driver prepares every query anew, and preparing cost more than running the
 * query itself (about a fifth of a profile read's CPU in bench/server). Queries are built from a
 * fixed set of shapes, so prepared statements are kept by SQL text (oldest dropped past the cap).
 */
const withStatementCache = (sqlite: SQLite.Database) => {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
};

/** The better-sqlite3 connection under each SQLite store's Kysely executor (see `sqliteConnection`). */
const connections = new WeakMap<object, SQLite.Database>();

/**
 * The SQLite connection behind `db` (a store's Kysely instance, or its `withTables()`, which shares
 * the executor), for a hot path that runs better-sqlite3's statements itself; undefined on PostgreSQL
 * and inside a Kysely transaction. Another request's Kysely transaction may be open on it between two
 * of its awaits, so use it either while holding Kysely's connection (`db.connection().execute(...)`,
 * synchronously) or, for one statement, only while `inTransaction` is false (compiled-query.ts).
 */
export const sqliteConnection = (db: { getExecutor(): object }): SQLite.Database | undefined =>
  connections.get(db.getExecutor());

export interface StoreOptions {
  /** Most PostgreSQL connections this process opens (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** PostgreSQL: statements prepared once per connection (DATABASE_PREPARED_STATEMENTS, prepared-statements.ts). */
  preparedStatements?: boolean;
}

/** How long a start waits for another process to let go of a new database file. */
const WAL_SWITCH_TIMEOUT_MS = 10_000;

/**
 * Puts the file in WAL mode (a property of the file: every start after the first finds it so and
 * takes no lock). The switch needs the file to itself, and while another connection holds its write
 * lock (another process switching it) SQLite answers SQLITE_BUSY at once rather than waiting out
 * busy_timeout: servers starting together on one new file failed to start. The switch is retried
 * until the deadline instead.
 */
const toWriteAheadLog = (sqlite: SQLite.Database) => {
  const deadline = Date.now() + WAL_SWITCH_TIMEOUT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    try {
      // An in-memory database keeps its 'memory' journal.
      const mode = sqlite.pragma('journal_mode = WAL', { simple: true });
      if (mode === 'wal' || mode === 'memory') return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
    if (Date.now() + pause > deadline) {
      throw new Error(
        `${sqlite.name} stayed locked by another process for ${WAL_SWITCH_TIMEOUT_MS / 1000} s: it could not be switched to WAL mode`,
      );
    }
    // openStore is synchronous (the server opens its store before anything else runs).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
  }
};

/** A new PostgreSQL connection that cannot be made by then fails the query (503), never hangs it. */
const CONNECT_TIMEOUT_MS = 5_000;

export const openStore = (url: string, { poolSize = 10, preparedStatements = true }: StoreOptions = {}): Store => {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // A connection the server closed (a restart, a failover) would otherwise crash the process:
    // idle ones through the pool, checked-out ones between two queries through the client. The
    // query in flight still fails (answered 503), the pool drops the connection and opens a new one.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      if (preparedStatements) prepareStatementsOn(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new SealedRecords()] });
    return {
      db,
      dialect: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
      close: () => db.destroy(),
    };
  }
  if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
  const sqlite = new SQLite(url);
  sqlite.pragma('busy_timeout = 5000');
  toWriteAheadLog(sqlite);
  // Durable against a crash of the process (a commit is in the WAL before it returns); the WAL is
  // synced at each checkpoint.
  sqlite.pragma('synchronous = NORMAL');
  // A checkpoint every ~40 MB of WAL rather than SQLite's 4 MB: pages every commit touches (the ends
  // of the indexes) are copied back once per checkpoint; at 4 MB the copies cost about a fifth more
  // CPU for the usage events' inserts in group-commit-sized transactions (bench/usage). After a
  // checkpoint the file is cut back to that size.
  sqlite.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_CHECKPOINT_PAGES * 4096}`);
  sqlite.pragma('foreign_keys = ON');
  // What a row held before it was rewritten (a child's record sealed in place) is zeroed where it
  // lay in its page, not left readable in the file.
  sqlite.pragma('secure_delete = FAST');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new SealedRecords()],
  });
  connections.set(db.getExecutor(), sqlite);
  return {
    db,
    dialect: 'sqlite',
    // SQLite's online backup: a consistent copy while the server keeps reading and writing.
    backup: async (file) => (await sqlite.backup(file)).totalPages,
    close: () => db.destroy(),
  };
};

/**
 * PostgreSQL statements parsed and planned once per connection instead of on every run. A statement
 * sent unnamed (node-postgres' default) is parsed and planned anew each time; for the short lookups a
 * sign-in makes, planning cost PostgreSQL more than running them (bench/district, a card sign-in at
 * one at a time: 1.8 ms of planning against 1.4 ms of execution per flow). Named, each statement is
 * parsed once per connection, and after five runs PostgreSQL keeps a generic plan when it is no worse.
 *
 * - The name is a hash of the text: one name per statement text in every connection. A text of at
 *   most LONGEST_NAMED characters is named from its NAMED_FROM_RUN-th run in the process on, so
 *   statements run once or twice (a sweep's last short batch, an IN list of an unusual length) never
 *   take a place in PostgreSQL's memory, and at most MOST_NAMES texts are named per process (each
 *   connection keeps those it ran: a hot set of a few dozen in practice, tens of kilobytes each).
 * - A rolling upgrade that changes a table's columns under a prepared `select *` makes PostgreSQL
 *   refuse the statement ("cached plan must not change result type"). The text then gets a new name,
 *   prepared again from the new columns at its next run; outside a transaction the statement is run
 *   again at once, inside one the transaction fails and the request is answered 503 E_10 (try again,
 *   http/unavailable.ts).
 * - `DATABASE_PREPARED_STATEMENTS=0` sends every statement unnamed: for a pooler between the server
 *   and PostgreSQL that hands a connection to another client between transactions and does not carry
 *   named statements (PgBouncer in transaction mode before 1.21, or with `max_prepared_statements = 0`).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statement texts that get a name, in one process; later ones run unnamed. */
const MOST_NAMES = 500;
/** A text is named from this run on (in the process). */
export const NAMED_FROM_RUN = 3;
/** Texts whose runs are counted until they are named; past it the counts start again. */
const MOST_COUNTED = 1_000;
/**
 * Longer texts are never named nor counted: they are writes of many rows (an import's batch, the
 * usage events' inserts), whose text changes with the rows and whose planning is a small share.
 */
export const LONGEST_NAMED = 4_000;

const names = new Map<string, string>();
const runs = new Map<string, number>();
let renamed = 0;

const nameOf = (text: string): string | undefined => {
  if (text.length > LONGEST_NAMED) return undefined;
  const known = names.get(text);
  if (known !== undefined || names.size >= MOST_NAMES) return known;
  const seen = (runs.get(text) ?? 0) + 1;
  if (seen < NAMED_FROM_RUN) {
    if (runs.size >= MOST_COUNTED) runs.clear();
    runs.set(text, seen);
    return undefined;
  }
  runs.delete(text);
  const name = `edupass_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
  names.set(text, name);
  return name;
};

/** PostgreSQL's refusal of a prepared statement whose result columns a schema change altered. */
export const RESULT_TYPE_CHANGED = 'cached plan must not change result type';

const refusedAsChanged = (error: unknown) =>
  error instanceof Error &&
  (error as { code?: string }).code === '0A000' &&
  error.message.includes(RESULT_TYPE_CHANGED);

const BEGINS = /^\s*(begin|start transaction)\b/i;
const ENDS = /^\s*(commit|rollback|end|abort)\b/i;

/**
 * Makes `client` send the statements Kysely runs on it (`query(text, values)`, values given) as named
 * statements; every other call (callbacks, configs, cursors) passes through unchanged.
 */
export const prepareStatementsOn = (client: pg.PoolClient) => {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  const query = original as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  let inTransaction = false;
  const run = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
    const name = nameOf(text);
    try {
      return await query(name === undefined ? { text, values } : { name, text, values });
    } catch (error) {
      if (name === undefined || !refusedAsChanged(error)) throw error;
      // The old name stays prepared on this connection until it closes; the text is prepared anew.
      names.set(text, `${name}_${++renamed}`);
      if (inTransaction) throw error;
      return query({ name: names.get(text) as string, text, values });
    }
  };
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === 'string') {
      if (BEGINS.test(text)) inTransaction = true;
      else if (ENDS.test(text)) inTransaction = false;
      if (args.length === 2 && Array.isArray(values) && values.length > 0) return run(text, values);
    }
    return original(...args);
  }) as typeof client.query;
};

/**
 * The tamper-evident logs (migration 050): the operators' audit (`admin_audit`) and the reads of
 * people's records (`edu_access_log`), each a chain. A row's link is an HMAC, under the keyring's audit
 * key, over the link before it and the row's canonical content (its chain, its place and every column
 * but the id); a changed, removed or reordered row breaks the links from there on, and only the key's
 * holder could write them again.
 *
 * Order under parallel writes: every writer locks both chains' heads, in one order, in its own
 * transaction (`SELECT … FOR UPDATE` on PostgreSQL; on SQLite the head's update takes the database's
 * one write lock), gives its rows the next places and moves the head before it commits. Locking both
 * heads every time means a transaction that writes to both logs, in either order, cannot deadlock
 * with another.
 *
 * Nothing deletes from these tables but this module's retention (`dropChainSegment`): it drops the
 * oldest places, a batch at a time, and keeps the last dropped link as the chain's anchor (with its
 * own HMAC), from which `edupass audit verify` starts.
 */
import { createHmac, type KeyObject } from 'node:crypto';
import { type Insertable, type Kysely, sql } from 'kysely';
import { dialectOf } from '../db.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;
/** Either chain's table, by a name known only at run time: the columns both have. */
type ChainDb = Kysely<Record<ChainName, { id: number; chain_seq: number | null; at: number; created_at: number }>>;
const either = (db: Db) => db as unknown as ChainDb;

export const CHAINS = ['admin_audit', 'edu_access_log'] as const;
export type ChainName = (typeof CHAINS)[number];

type AuditRow = Insertable<Database['admin_audit']>;
type ReadRow = Insertable<Database['edu_access_log']>;

/** Each chain's time column: what retention compares with its cut-off. */
const TIME = { admin_audit: 'at', edu_access_log: 'created_at' } as const;

/** The link after `previous` for a row whose canonical content is `content`. */
export const chainLink = (key: KeyObject, previous: string, content: readonly unknown[]) =>
  createHmac('sha256', key).update(previous).update('\n').update(JSON.stringify(content)).digest('base64url');

const text = (value: string | null | undefined) => value ?? null;
const num = (value: number | null | undefined) => (value === null || value === undefined ? null : Number(value));

/** What a row's link covers, in one fixed order: every column but the id and the link itself. */
export const canonical = {
  admin_audit: (row: Partial<AuditRow>) => [
    'admin_audit',
    num(row.chain_seq),
    num(row.operator_id),
    text(row.action),
    text(row.target),
    text(row.detail),
    num(row.at),
  ],
  edu_access_log: (row: Partial<ReadRow>) => [
    'edu_access_log',
    num(row.chain_seq),
    num(row.reader_id),
    text(row.reader_role),
    num(row.subject_id),
    text(row.fields),
    text(row.purpose),
    text(row.reason),
    num(row.created_at),
    text(row.read_key),
  ],
} as const;

/** The anchor's own HMAC: the last dropped place, its link and its time. */
export const anchorMac = (key: KeyObject, chain: ChainName, seq: number, link: string, at: number | null) =>
  chainLink(key, 'anchor', [chain, seq, link, at]);

export interface ChainHead {
  chain: string;
  seq: number;
  link: string;
  anchor_seq: number;
  anchor_link: string;
  anchor_at: number | null;
  anchor_mac: string | null;
}

/** Both heads, locked until `tx` ends (see the module's note on order). */
const lockHeads = async (tx: Db): Promise<Record<ChainName, ChainHead>> => {
  if (dialectOf(tx) === 'sqlite') {
    await tx.updateTable('audit_chains').set({ seq: sql`seq` }).where('chain', 'in', CHAINS).execute();
  }
  let query = tx.selectFrom('audit_chains').selectAll().where('chain', 'in', CHAINS).orderBy('chain');
  if (dialectOf(tx) === 'postgres') query = query.forUpdate();
  const rows = await query.execute();
  return Object.fromEntries(rows.map((row) => [row.chain, row])) as Record<ChainName, ChainHead>;
};

/** Gives `rows` the next places after `head` and their links; answers them and the new head. */
const linked = <R extends object>(
  key: KeyObject,
  chain: ChainName,
  head: ChainHead,
  rows: R[],
  content: (row: R & { chain_seq: number }) => unknown[],
) => {
  let seq = Number(head.seq);
  let link = head.link;
  const out = rows.map((row) => {
    seq += 1;
    const placed = { ...row, chain_seq: seq };
    link = chainLink(key, link, content(placed));
    return { ...placed, chain_link: link };
  });
  return { rows: out, head: { seq, link }, chain };
};

const moveHead = (tx: Db, chain: ChainName, head: { seq: number; link: string }) =>
  tx.updateTable('audit_chains').set(head).where('chain', '=', chain).execute();

/** The most appends one transaction carries. */
const GROUP_MOST = 64;

interface Pending {
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
const groups = new WeakMap<object, { queue: Pending[]; draining: boolean }>();

const drain = async (db: Db, group: { queue: Pending[]; draining: boolean }) => {
  while (group.queue.length > 0) {
    const batch = group.queue.splice(0, GROUP_MOST);
    try {
      const results = await db.transaction().execute(async (tx) => {
        const out: unknown[] = [];
        for (const item of batch) out.push(await item.work(tx));
        return out;
      });
      for (const [i, item] of batch.entries()) item.resolve(results[i]);
    } catch (error) {
      // One append's failure is not the others': alone, each succeeds or fails on its own.
      if (batch.length === 1) (batch[0] as Pending).reject(error);
      else {
        for (const item of batch) await db.transaction().execute(item.work).then(item.resolve, item.reject);
      }
    }
  }
  group.draining = false;
};

/**
 * Runs `work` (an append and what commits with it) in `db`'s transaction when it is one; else with the
 * appends this process asks for while one is being written, in one transaction after it: the chains'
 * heads are locked once and one commit carries them all, where each alone would wait its turn for the
 * lock and a commit (bench/audit-chain). Each caller gets its own work's answer.
 */
export const inChainGroup = <T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> => {
  if (db.isTransaction) return work(db);
  const key = db.getExecutor().adapter;
  let group = groups.get(key);
  if (group === undefined) {
    group = { queue: [], draining: false };
    groups.set(key, group);
  }
  const joined = group;
  return new Promise<T>((resolve, reject) => {
    joined.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (!joined.draining) {
      joined.draining = true;
      void drain(db, joined);
    }
  });
};

/** Writes audit rows at the end of the audit's chain, in `db`'s transaction or a group's (`inChainGroup`). */
export const appendAudit = (db: Db, key: KeyObject, rows: Omit<AuditRow, 'id' | 'chain_seq' | 'chain_link'>[]) =>
  inChainGroup(db, async (tx) => {
    const heads = await lockHeads(tx);
    const next = linked(key, 'admin_audit', heads.admin_audit, rows, canonical.admin_audit);
    await tx.insertInto('admin_audit').values(next.rows).execute();
    await moveHead(tx, 'admin_audit', next.head);
  });

/**
 * Writes reads at the end of the access log's chain, leaving out those whose `read_key` is in the log
 * already (the same read that day): answers the rows written. Under the heads' lock no other writer
 * can add a key between the look-up and the insert.
 */
export const appendReads = (db: Db, key: KeyObject, rows: Omit<ReadRow, 'id' | 'chain_seq' | 'chain_link'>[]) =>
  inChainGroup(db, async (tx) => {
    const heads = await lockHeads(tx);
    const keys = rows.flatMap((row) => (row.read_key ? [row.read_key] : []));
    const present = new Set(
      keys.length === 0
        ? []
        : (await tx.selectFrom('edu_access_log').select('read_key').where('read_key', 'in', keys).execute()).map(
            (row) => row.read_key,
          ),
    );
    const fresh = rows.filter((row) => !present.has(row.read_key ?? null));
    if (fresh.length === 0) return [];
    const next = linked(key, 'edu_access_log', heads.edu_access_log, fresh, canonical.edu_access_log);
    await tx.insertInto('edu_access_log').values(next.rows).execute();
    await moveHead(tx, 'edu_access_log', next.head);
    return next.rows;
  });

export const chainHeads = async (db: Db) =>
  Object.fromEntries(
    (await db.selectFrom('audit_chains').selectAll().execute()).map((row) => [row.chain, row]),
  ) as Record<ChainName, ChainHead>;

/** One page of a chain's rows in place order, after place `after`, as `canonical` reads them. */
export const chainPage = async (db: Db, chain: ChainName, after: number, limit: number) => {
  const rows =
    chain === 'admin_audit'
      ? await db
          .selectFrom('admin_audit')
          .selectAll()
          .where('chain_seq', '>', after)
          .orderBy('chain_seq')
          .limit(limit)
          .execute()
      : await db
          .selectFrom('edu_access_log')
          .selectAll()
          .where('chain_seq', '>', after)
          .orderBy('chain_seq')
          .limit(limit)
          .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    seq: Number(row.chain_seq),
    link: row.chain_link ?? '',
    at: Number('at' in row ? row.at : row.created_at),
    content: (canonical[chain] as (r: typeof row) => unknown[])(row),
  }));
};

/**
 * Rows without a place: those from before the chain (ids below its first place's row), counted, and
 * the first one written after it began (a row slipped in past the writers), if any.
 */
export const rowsOutsideChain = async (db: Db, chain: ChainName) => {
  const table = either(db);
  const first = await table
    .selectFrom(chain)
    .select('id')
    .where('chain_seq', 'is not', null)
    .orderBy('chain_seq')
    .limit(1)
    .executeTakeFirst();
  const unplaced = table.selectFrom(chain).where('chain_seq', 'is', null);
  const before = await unplaced
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .$if(first !== undefined, (q) => q.where('id', '<', Number(first?.id)))
    .executeTakeFirstOrThrow();
  const slipped =
    first === undefined
      ? undefined
      : await unplaced
          .select(['id', `${TIME[chain]} as at`])
          .where('id', '>', Number(first.id))
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
  return { before: Number(before.n), slipped };
};

/**
 * Retention for one chain: drops the oldest rows with a time before `before`, at most `limit` places
 * from the anchor on, stopping at the first newer row (a whole segment of the chain, never a row from
 * its middle), and moves the anchor to the last place dropped, in one transaction. Rows from before the
 * chain go by their time as before. Answers how many rows went; 0 when the chain's start is not old.
 */
export const dropChainSegment = async (db: Db, key: KeyObject, chain: ChainName, before: number, limit: number) =>
  db.transaction().execute(async (tx) => {
    const table = either(tx);
    const time = TIME[chain];
    const legacy = await table
      .deleteFrom(chain)
      .where('id', 'in', (eb) =>
        eb.selectFrom(chain).select('id').where('chain_seq', 'is', null).where(time, '<', before).limit(limit),
      )
      .executeTakeFirst();
    const heads = await lockHeads(tx);
    const from = Number(heads[chain].anchor_seq);
    const rows = await chainPage(tx, chain, from, limit);
    let last: (typeof rows)[number] | undefined;
    for (const row of rows) {
      if (row.at >= before || row.seq !== (last?.seq ?? from) + 1) break;
      last = row;
    }
    if (last === undefined) return Number(legacy.numDeletedRows);
    await tx
      .updateTable('audit_chains')
      .set({
        anchor_seq: last.seq,
        anchor_link: last.link,
        anchor_at: last.at,
        anchor_mac: anchorMac(key, chain, last.seq, last.link, last.at),
      })
      .where('chain', '=', chain)
      .execute();
    const dropped = await table
      .deleteFrom(chain)
      .where('chain_seq', '>', from)
      .where('chain_seq', '<=', last.seq)
      .executeTakeFirst();
    return Number(legacy.numDeletedRows) + Number(dropped.numDeletedRows);
  });

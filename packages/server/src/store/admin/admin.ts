/** The console's reads over users and agreements, and the audit log. */
import type { KeyObject } from 'node:crypto';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { type Dialect, dialectOf } from '../db.ts';
import type { Database } from '../schema.ts';
import { holdsRecord } from '../sealed-records.ts';
import { appendAudit } from './audit-chain.ts';

type Db = Kysely<Database>;

const USER_COLUMNS = [
  'id',
  'phone',
  'email',
  'username',
  'nickname',
  'avatar_url',
  'role',
  'blocked_at',
  'created_at',
  'age_band',
] as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const escapeGlob = (text: string) => text.replace(/[[*?]/g, (c) => `[${c}]`);
type Searched = 'phone' | 'email' | 'username_key' | 'nickname';
/** `value LIKE pattern` with the backslash as the escape character on SQLite and PostgreSQL alike. */
const like = (value: Expression<string>, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`${value} like ${pattern} escape '\\'`;

/**
 * What a fragment is looked for in: the column with nothing appended, the expression PostgreSQL's
 * trigram indexes are built on (migration 064), so that no lookup of a whole value reads them.
 */
const fragmentsOf = (column: Searched) => sql<string>`(${sql.ref(column)} || '')`;

/** The text as a LIKE (or SQLite GLOB) pattern: literal, but `*` in a masked value stands for any characters. */
const patternOf = (text: string, masked: boolean, glob = false) =>
  (masked ? text.split(/\*+/) : [text]).map(glob ? escapeGlob : escapeLike).join(glob ? '*' : '%');

/**
 * `column` starts with `start`: LIKE on PostgreSQL (its `text_pattern_ops` indexes; a masked value,
 * `139****2345`, whose pattern has a gap the prefix index cannot read past, through the trigram ones),
 * GLOB on SQLite (whose LIKE ignores case and so cannot use the column's index).
 */
const startsWith = (dialect: Dialect, column: Searched, start: string, masked = false): Expression<SqlBool> => {
  if (dialect !== 'postgres') return sql<SqlBool>`${sql.ref(column)} glob ${`${patternOf(start, masked, true)}*`}`;
  const gap = masked && start.includes('*');
  return like(gap ? fragmentsOf(column) : sql.ref(column), `${patternOf(start, masked)}%`);
};

/** `column` holds `fragment` anywhere. */
const holds = (column: Searched, fragment: string, masked = false) =>
  like(fragmentsOf(column), `%${patternOf(fragment, masked)}%`);

/**
 * The phone digits in what an operator typed or pasted: spaces and dashes dropped, a +86 prefix on a full
 * number dropped, `*` kept (a masked number); undefined when it is not a phone fragment.
 */
export const phoneFragment = (text: string): string | undefined => {
  const compact = text.replace(/[\s-]/g, '').replace(/^\+?86(?=[\d*]{11}$)/, '');
  return /^[\d*]+$/.test(compact) && /\d{3}|\d\*|\*\d/.test(compact) ? compact : undefined;
};

/** Fragments shorter than this are looked for as whole values and beginnings only (no index finds them inside). */
export const SHORTEST_INSIDE = 3;

type Rung = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/**
 * The search ladder, each rung through indexes: the id and whole values (unique indexes), then values
 * that begin with the text, then values that hold it anywhere (PostgreSQL's trigram indexes; a scan on
 * SQLite). The first rung that finds anyone answers.
 */
const ladder = (db: Db, text: string): Rung[] => {
  const dialect = dialectOf(db);
  const id = /^#?([1-9]\d{0,8})$/.exec(text)?.[1];
  const phone = phoneFragment(text);
  const lower = text.toLowerCase();
  const whole: Rung = (eb) =>
    eb.or([
      ...(id ? [eb('id', '=', Number(id))] : []),
      ...(phone && /^\d{11}$/.test(phone) ? [holdsRecord(db, 'phone', phone)] : []),
      holdsRecord(db, 'email', lower),
      eb('username_key', '=', lower),
      eb('nickname', '=', text),
    ]);
  const beginning: Rung = (eb) =>
    eb.or([
      // A masked number that starts hidden (****0006) has no beginning to look up: the next rung finds it.
      ...(phone && !phone.startsWith('*') ? [startsWith(dialect, 'phone', phone, true)] : []),
      startsWith(dialect, 'email', lower, true),
      startsWith(dialect, 'username_key', lower),
      startsWith(dialect, 'nickname', text),
    ]);
  const inside: Rung = (eb) =>
    eb.or([
      ...(phone ? [holds('phone', phone, true)] : []),
      holds('email', lower, true),
      holds('username_key', lower),
      holds('nickname', text),
    ]);
  return [whole, beginning, ...([...text].length >= SHORTEST_INSIDE ? [inside] : [])];
};

/**
 * Users matching `q`, newest first: the id (`5` or `#5`; `0005` is a phone fragment, not an id), a whole
 * phone, e-mail, username or nickname, else those beginning with it, else those holding it (any
 * fragment of the phone, masked numbers included, or of the e-mail, username or nickname). Paged by id:
 * a later page (`beforeId`) stays on the rung its first page found.
 */
export const searchUsers = async (db: Db, q: string | undefined, beforeId: number | undefined, limit: number) => {
  const page = (rung?: Rung) => {
    let query = db.selectFrom('users').select(USER_COLUMNS).orderBy('id', 'desc').limit(limit);
    if (rung) query = query.where(rung);
    return beforeId === undefined ? query : query.where('id', '<', beforeId);
  };
  const text = q?.trim();
  if (!text) return page().execute();
  const [whole, beginning, inside] = ladder(db, text);
  for (const rung of [whole, beginning]) {
    const found = await db.selectFrom('users').select('id').where(rung!).limit(1).executeTakeFirst();
    if (found) return page(rung).execute();
  }
  if (!inside) return [];
  // The planner cannot tell how many values hold a fragment: left to choose, it may walk every user
  // newest first looking for a page of them. The ids that hold it are taken first, through the
  // trigram indexes, then the page of them.
  let query = db
    .with(
      (cte) => cte('holding').materialized(),
      (withDb) => withDb.selectFrom('users').select('id').where(inside),
    )
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('holding').select('holding.id'))
    .orderBy('id', 'desc')
    .limit(limit);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.execute();
};

export const userSessions = (db: Db, userId: number, limit = 50) =>
  db
    .selectFrom('sessions')
    .select(['id', 'method', 'ip', 'user_agent', 'created_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();

export const userSignatures = (db: Db, userId: number) =>
  db
    .selectFrom('agreement_signatures as s')
    .innerJoin('agreements as a', 'a.id', 's.agreement_id')
    .select(['a.id', 'a.code', 'a.title', 'a.version', 's.signed_at'])
    .where('s.user_id', '=', userId)
    .orderBy('s.signed_at', 'desc')
    .execute();

export const allAgreementVersions = (db: Db) =>
  db.selectFrom('agreements').selectAll().orderBy('code').orderBy('version', 'desc').execute();

export const latestVersion = async (db: Db, code: string): Promise<number> => {
  const row = await db
    .selectFrom('agreements')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('code', '=', code)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
};

/** One audit row, at the end of the audit's chain (audit-chain.ts). */
export const recordAudit = (
  db: Db,
  key: KeyObject,
  row: Omit<Database['admin_audit'], 'id' | 'chain_seq' | 'chain_link'>,
) => appendAudit(db, key, [row]);

export interface AuditFilter {
  limit: number;
  /** Only entries older than this one (its id): the next page. */
  before?: number | undefined;
  action?: string | undefined;
  /** Only entries with one of these actions (a group of them). */
  actions?: readonly string[] | undefined;
  operatorId?: number | undefined;
  /** Leaves out this operator's own entries: the auditor reading (protocol's operator-duties.ts). */
  notOperatorId?: number | undefined;
}

/** Audit entries newest first, with the operator's phone and names as they are now. */
export const auditEntries = (db: Db, filter: AuditFilter) => {
  let query = db
    .selectFrom('admin_audit as a')
    .leftJoin('users as u', 'u.id', 'a.operator_id')
    .select([
      'a.id',
      'a.operator_id',
      'a.action',
      'a.target',
      'a.detail',
      'a.at',
      'u.phone as operator_phone',
      'u.nickname as operator_nickname',
      'u.username as operator_username',
    ])
    .orderBy('a.id', 'desc')
    .limit(filter.limit);
  if (filter.before !== undefined) query = query.where('a.id', '<', filter.before);
  if (filter.action !== undefined) query = query.where('a.action', '=', filter.action);
  if (filter.actions !== undefined) query = query.where('a.action', 'in', filter.actions);
  if (filter.operatorId !== undefined) query = query.where('a.operator_id', '=', filter.operatorId);
  if (filter.notOperatorId !== undefined) query = query.where('a.operator_id', '!=', filter.notOperatorId);
  return query.execute();
};

export const operatorAccounts = (db: Db) =>
  db
    .selectFrom('users')
    .select(['id', 'phone', 'nickname', 'username'])
    .where('role', '=', 'operator')
    .orderBy('id')
    .execute();

/**
 * What an export reads: a time window (unix ms, both ends counted), whose rows are left out, and a page
 * of ids (keyset on the primary key: after `afterId`, up to `upToId`, at most `limit` rows).
 */
export interface ExportFilter {
  from: number;
  to: number;
  /** The auditor exporting: their own rows are left out (no one reads their own trail). */
  notOperatorId: number;
}
export interface ExportPage {
  afterId: number;
  upToId: number;
  limit: number;
}

const auditExportRows = (db: Db, filter: ExportFilter) =>
  db
    .selectFrom('admin_audit as a')
    .where('a.at', '>=', filter.from)
    .where('a.at', '<=', filter.to)
    .where('a.operator_id', '!=', filter.notOperatorId);

const readExportRows = (db: Db, filter: ExportFilter) =>
  db
    .selectFrom('edu_access_log')
    .where((eb) =>
      eb.and([eb.between('created_at', filter.from, filter.to), eb('reader_id', '!=', filter.notOperatorId)]),
    );

/** How many rows of the window there are now, and the newest one's id (the export's end). */
export const exportExtent = async (db: Db, log: 'audit' | 'reads', filter: ExportFilter) => {
  const row = await (log === 'audit'
    ? auditExportRows(db, filter).select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.max('a.id').as('last'),
      ])
    : readExportRows(db, filter).select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('id').as('last')])
  ).executeTakeFirstOrThrow();
  return { rows: Number(row.n), lastId: row.last === null ? 0 : Number(row.last) };
};

/** A page of audit rows of the window, oldest first, with the operator's phone as it is now. */
export const auditRowsToExport = (db: Db, filter: ExportFilter, page: ExportPage) =>
  auditExportRows(db, filter)
    .leftJoin('users as u', 'u.id', 'a.operator_id')
    .select(['a.id', 'a.operator_id', 'u.phone as operator_phone', 'a.action', 'a.target', 'a.detail', 'a.at'])
    .where('a.id', '>', page.afterId)
    .where('a.id', '<=', page.upToId)
    .orderBy('a.id')
    .limit(page.limit)
    .execute();

/** A page of reads of people's records of the window, oldest first (the person by number only). */
export const readRowsToExport = (db: Db, filter: ExportFilter, page: ExportPage) =>
  readExportRows(db, filter)
    .select(['id', 'reader_id', 'reader_role', 'subject_id', 'fields', 'purpose', 'reason', 'created_at'])
    .where('id', '>', page.afterId)
    .where('id', '<=', page.upToId)
    .orderBy('id')
    .limit(page.limit)
    .execute();

/** The console's reads over users and agreements, and the audit log. */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../schema.ts';

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
/** `*` as written in a masked value (138****0006, a***@school.cn) stands for any characters. */
const maskedLike = (text: string) => `%${escapeLike(text).replace(/\*+/g, '%')}%`;
/** `column LIKE pattern` with the backslash as the escape character on SQLite and PostgreSQL alike. */
const like = (column: 'phone' | 'email' | 'username_key' | 'nickname', pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;

/**
 * The phone digits in what an operator typed or pasted: spaces and dashes dropped, a +86 prefix on a full
 * number dropped, `*` kept (a masked number); undefined when it is not a phone fragment.
 */
export const phoneFragment = (text: string): string | undefined => {
  const compact = text.replace(/[\s-]/g, '').replace(/^\+?86(?=[\d*]{11}$)/, '');
  return /^[\d*]+$/.test(compact) && /\d{3}|\d\*|\*\d/.test(compact) ? compact : undefined;
};

/**
 * Users matching `q`, newest first: the id (`5` or `#5`; `0005` is a phone fragment, not an id), any
 * fragment of the phone (masked numbers included), or any part of the e-mail, username or nickname.
 */
export const searchUsers = (db: Db, q: string | undefined, beforeId: number | undefined, limit: number) => {
  let query = db.selectFrom('users').select(USER_COLUMNS).orderBy('id', 'desc').limit(limit);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  const text = q?.trim();
  if (text) {
    const id = /^#?([1-9]\d{0,8})$/.exec(text)?.[1];
    const phone = phoneFragment(text);
    query = query.where((eb) =>
      eb.or([
        ...(id ? [eb('id', '=', Number(id))] : []),
        ...(phone ? [like('phone', maskedLike(phone))] : []),
        like('email', maskedLike(text.toLowerCase())),
        like('username_key', `%${escapeLike(text.toLowerCase())}%`),
        like('nickname', `%${escapeLike(text)}%`),
      ]),
    );
  }
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

export const recordAudit = (db: Db, row: Omit<Database['admin_audit'], 'id'>) =>
  db.insertInto('admin_audit').values(row).execute();

export interface AuditFilter {
  limit: number;
  /** Only entries older than this one (its id): the next page. */
  before?: number | undefined;
  action?: string | undefined;
  /** Only entries with one of these actions (a group of them). */
  actions?: readonly string[] | undefined;
  operatorId?: number | undefined;
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
  return query.execute();
};

export const operatorAccounts = (db: Db) =>
  db
    .selectFrom('users')
    .select(['id', 'phone', 'nickname', 'username'])
    .where('role', '=', 'operator')
    .orderBy('id')
    .execute();

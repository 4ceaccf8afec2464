/**
 * Sessions (one per sign-in) and their rotating refresh tokens. A session is stored under a hash of
 * its id (`sessionKey`): the id itself travels only inside tokens (the access token's `sid`, the
 * refresh token's prefix), so a copy of the database names no session a forged token could use.
 * Functions here take the session id and hash it; refresh-token rows hold the key.
 */
import { createHash } from 'node:crypto';
import { type Kysely, type QueryCreator, type Selectable, sql } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import { dialectOf } from '../db.ts';
import type { Database, SessionsTable, UsersTable } from '../schema.ts';
import { openRows, recordSealerOf } from '../sealed-records.ts';
import { inStoreUnit } from '../transaction.ts';
import { refreshTokenInsert } from './refresh-tokens.ts';

type Db = Kysely<Database>;

/** The stored form of a session id (migration 009 hashed the ids stored before it the same way). */
export const sessionKey = (sessionId: string) =>
  createHash('sha256').update(`session:${sessionId}`).digest('base64url');

type SessionValues = [
  key: string,
  userId: number,
  method: string,
  ip: string,
  userAgent: string,
  createdAt: number,
  revokedAt: number | null,
  pid: string | null,
  secondFactorAt: number | null,
  staff: number,
];
const SESSION_PLACEHOLDERS: SessionValues = ['', 0, '', '', '', 0, null, null, null, 0];

const sessionRow = (
  ...[key, userId, method, ip, userAgent, createdAt, revokedAt, pid, secondFactorAt, staff]: SessionValues
) => ({
  id: key,
  user_id: userId,
  method,
  ip,
  user_agent: userAgent,
  created_at: createdAt,
  revoked_at: revokedAt,
  pid,
  second_factor_at: secondFactorAt,
  staff,
});

// Every sign-in starts one, in its transaction (compiled-query.ts).
const sessionInsert = compiledOnce(
  (db, ...session: SessionValues) => db.insertInto('sessions').values(sessionRow(...session)),
  SESSION_PLACEHOLDERS,
);

type RefreshValues = [tokenHash: string, tokenSession: string, tokenCreatedAt: number, expiresAt: number];

/** The new session's columns its user is read with (`SessionUser`). */
const STARTED = ['user_id', 'staff', 'method', 'created_at', 'last_active_at'] as const;

/**
 * A new session and, in the same statement (PostgreSQL's data-modifying WITH), its user as
 * `findLiveSession` would read it: the sign-in's next call finds it remembered (services/sessions/
 * tokens.ts `startSession`). The users row is the one the statement's snapshot holds, as committed
 * when it began.
 */
const sessionStart = compiledOnce(
  (db, ...session: SessionValues) =>
    startedUser(
      db,
      db.with('started', (qc) =>
        qc
          .insertInto('sessions')
          .values(sessionRow(...session))
          .returning(STARTED),
      ),
    ),
  SESSION_PLACEHOLDERS,
);

/** The same with the first token of the session's refresh chain: a sign-in that hands out a token set stores both. */
const sessionWithRefreshStart = compiledOnce(
  (db, ...values: [...SessionValues, ...RefreshValues]) => {
    const [tokenHash, tokenSession, tokenCreatedAt, expiresAt] = values.slice(10) as RefreshValues;
    return startedUser(
      db,
      db
        .with('started', (qc) =>
          qc
            .insertInto('sessions')
            .values(sessionRow(...(values.slice(0, 10) as SessionValues)))
            .returning(STARTED),
        )
        .with('refresh', (qc) =>
          qc
            .insertInto('refresh_tokens')
            .values({
              token_hash: tokenHash,
              session_id: tokenSession,
              created_at: tokenCreatedAt,
              expires_at: expiresAt,
            })
            .onConflict((oc) => oc.column('token_hash').doNothing()),
        ),
    );
  },
  [...SESSION_PLACEHOLDERS, '', '', 0, 0],
);

export type NewSession = Omit<Database['sessions'], 'pid' | 'second_factor_at' | 'staff' | 'last_active_at'> & {
  pid?: string | null;
  second_factor_at?: number | null;
  staff?: number;
};

/**
 * Stores a session under its key (`row.id` is the session id), and with it the first refresh token of
 * its chain when there is one (`refresh.session_id` is the session's key), atomically; answers the
 * session's user as `findLiveSession` reads it, read with the writes: one statement on PostgreSQL,
 * three on SQLite (whose WITH holds no insert), in the caller's transaction when it has one, else as
 * one unit of the writes committed together at that moment (store/transaction.ts `inStoreUnit`).
 */
export const insertSession = async (
  db: Db,
  row: NewSession,
  refresh?: Database['refresh_tokens'],
): Promise<SessionUser | undefined> => {
  const session: SessionValues = [
    sessionKey(row.id),
    row.user_id,
    row.method,
    row.ip,
    row.user_agent,
    row.created_at,
    row.revoked_at,
    row.pid ?? null,
    row.second_factor_at ?? null,
    row.staff ?? 0,
  ];
  const refreshValues: RefreshValues | undefined = refresh && [
    refresh.token_hash,
    refresh.session_id,
    refresh.created_at,
    refresh.expires_at,
  ];
  if (dialectOf(db) === 'postgres') {
    const started = refreshValues
      ? await sessionWithRefreshStart(db, ...session, ...refreshValues)
      : await sessionStart(db, ...session);
    return started.rows[0];
  }
  const user = await inStoreUnit(
    db,
    () => {
      sessionInsert.now(db, ...session);
      if (refreshValues) refreshTokenInsert.now(db, ...refreshValues);
      return liveSession.now(db, session[0]).rows[0];
    },
    async (tx) => {
      await sessionInsert(tx, ...session);
      if (refreshValues) await refreshTokenInsert(tx, ...refreshValues);
      return findLiveSessionByKey(tx, session[0]);
    },
  );
  // Read in the unit, its sealed values are still sealed (compiled-query.ts `now`).
  if (user !== undefined) await openRows(recordSealerOf(db), [user]);
  return user;
};

/**
 * A copy of a session under a new id (same user, sign-in method, client and age): how a refresh
 * chain from before session ids were hashed gets an id it can carry. A second copy is a no-op.
 */
export const copySession = async (db: Db, fromKey: string, toId: string) => {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', fromKey).executeTakeFirst();
  if (row === undefined) return;
  await db
    .insertInto('sessions')
    .values({ ...row, id: sessionKey(toId) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
};

/**
 * A live session's user, with whether the school still asks the account to choose its own password
 * (`pupil_accounts.must_change_password`, null for an account no school made): read in the same
 * query, by the pupil table's primary key.
 */
export type SessionUser = Selectable<UsersTable> & {
  password_choice_due?: number | null;
  /** The session's own: a staff session (1) has an idle time-out; its sign-in and last call. */
  session_staff?: number;
  /** How the session signed in (`password`, `badge`, `school_cas`…). */
  session_method?: string;
  session_created_at?: number;
  session_last_active_at?: number | null;
  /**
   * The ids of the agreements the user had signed when the session was read, comma-separated (null
   * for none): `signedAgreementsOf`.
   */
  signed_agreements?: string | null;
};

/**
 * The agreements a session's read found signed. Signatures are never taken back, so what it holds is
 * signed still, however long the session was remembered; one signed since may be missing from it.
 */
export const signedAgreementsOf = (
  user: Selectable<UsersTable> & Pick<SessionUser, 'signed_agreements'>,
): Set<number> | undefined =>
  user.signed_agreements === undefined
    ? undefined
    : new Set(user.signed_agreements === null ? [] : user.signed_agreements.split(',').map(Number));

/**
 * What a live session's read answers beside its user's row, from the session's row (`session`), and
 * the user's signed agreements (by the signatures' primary key, user first): an interaction completed
 * with the session asks whether every agreement in effect is signed (services/account/agreements.ts).
 */
const sessionColumns = (db: Db, session: 'sessions' | 'started') => [
  sql.ref<number | null>('pupil_accounts.must_change_password').as('password_choice_due'),
  sql.ref<number>(`${session}.staff`).as('session_staff'),
  sql.ref<string>(`${session}.method`).as('session_method'),
  sql.ref<number>(`${session}.created_at`).as('session_created_at'),
  sql.ref<number | null>(`${session}.last_active_at`).as('session_last_active_at'),
  signedAgreementsColumn(db, `${session}.user_id`),
];

/** The ids of the agreements the user signed, comma-separated (null for none). */
const signedAgreementsColumn = (db: Db, userId: string) => {
  const ids =
    dialectOf(db) === 'postgres' ? sql`string_agg(cast(agreement_id as text), ',')` : sql`group_concat(agreement_id)`;
  return sql<string | null>`(select ${ids} from agreement_signatures where user_id = ${sql.ref(userId)})`.as(
    'signed_agreements',
  );
};

const liveSessionQuery = (db: Db, id: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('pupil_accounts', 'pupil_accounts.user_id', 'sessions.user_id')
    .selectAll('users')
    .select(sessionColumns(db, 'sessions'))
    .where('sessions.id', '=', id)
    .where('sessions.revoked_at', 'is', null);

/** The user of the session a statement's `started` inserted, as `liveSessionQuery` reads it. */
const startedUser = (db: Db, qc: QueryCreator<Database & { started: Pick<SessionsTable, (typeof STARTED)[number]> }>) =>
  qc
    .selectFrom('started')
    .innerJoin('users', 'users.id', 'started.user_id')
    .leftJoin('pupil_accounts', 'pupil_accounts.user_id', 'started.user_id')
    .selectAll('users')
    .select(sessionColumns(db, 'started'));

/**
 * The user of a live session, read with the session in one query. Every signed-in call the session
 * cache does not answer runs it, so it is compiled once per database and run with the new key
 * (building the query cost more than running it), on SQLite on its statement directly.
 */
const liveSession = compiledOnce(liveSessionQuery, ['']);

export const findLiveSession = (db: Db, id: string) => findLiveSessionByKey(db, sessionKey(id));

export const findLiveSessionByKey = async (db: Db, key: string): Promise<SessionUser | undefined> =>
  (await liveSession(db, key)).rows[0];

/** When a live session signed in; undefined for an ended or unknown one. */
export const sessionStartedAt = async (db: Db, id: string): Promise<number | undefined> => {
  const row = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('id', '=', sessionKey(id))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.created_at);
};

/** Records that a live session passed the second factor now (a later proof keeps the first time). */
export const markSessionSecondFactor = (db: Db, id: string, now: number) =>
  db
    .updateTable('sessions')
    .set({ second_factor_at: now })
    .where('id', '=', sessionKey(id))
    .where('revoked_at', 'is', null)
    .where('second_factor_at', 'is', null)
    .execute();

/** Whether a live session passed the second factor (at its sign-in or since). */
export const sessionPassedSecondFactor = async (db: Db, id: string): Promise<boolean> => {
  const row = await db
    .selectFrom('sessions')
    .select('second_factor_at')
    .where('id', '=', sessionKey(id))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.second_factor_at != null;
};

/** Ends every live session of a user but one (given by its id). */
export const revokeOtherSessions = (db: Db, userId: number, keep: string, now: number) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', sessionKey(keep))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

/**
 * A staff session's call at `now` (services/sessions/idle.ts): answers false, and writes nothing, when
 * the session is ended or its last call (or sign-in) is before `idleSince` — the check and the write
 * are one statement, so two processes cannot both find an idle session alive.
 */
export const touchLiveSession = async (db: Db, id: string, now: number, idleSince: number): Promise<boolean> => {
  const result = await db
    .updateTable('sessions')
    .set({ last_active_at: now })
    .where('id', '=', sessionKey(id))
    .where('revoked_at', 'is', null)
    .where((eb) => eb(eb.fn.coalesce('last_active_at', 'created_at'), '>=', idleSince))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

export const revokeSession = (db: Db, id: string, now: number) => revokeSessionByKey(db, sessionKey(id), now);

export const revokeSessionByKey = (db: Db, key: string, now: number) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', key)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

export const revokeUserSessions = (db: Db, userId: number, now: number) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();

/** A live session's product and the hashes of its refresh chain (every refresh token stored for it); undefined for an ended one. */
export const sessionChain = async (db: Db, id: string) => {
  const rows = await db
    .selectFrom('sessions')
    .leftJoin('refresh_tokens', 'refresh_tokens.session_id', 'sessions.id')
    .select(['sessions.pid', 'refresh_tokens.token_hash'])
    .where('sessions.id', '=', sessionKey(id))
    .where('sessions.revoked_at', 'is', null)
    .execute();
  const first = rows[0];
  if (first === undefined) return undefined;
  return { pid: first.pid, tokenHashes: rows.flatMap((r) => (r.token_hash === null ? [] : [r.token_hash])) };
};

/**
 * Children's records sealed at rest (Provisions on the Cyber Protection of Children's Personal
 * Information, art. 16): the phone, e-mail address, full name and birth month of an account under 14,
 * every name a school typed for its pupils, and the webhook log's payloads (what an account's change
 * told the platform's sites: a child's new name, a new phone) are stored sealed, so a copy of the
 * database or a backup shows none of them. services/security/record-keys.ts holds the keys and seals;
 * this module is where the store meets them:
 *
 * - Reading opens by itself: a plugin on every database handle opens each value in the sealed form
 *   (`r<generation>.<column>.v1.…`) of any row a query answers, whatever the query called the column,
 *   so the rest of the server sees plain values. Compiled queries run directly on SQLite open their rows
 *   through `openRows` (compiled-query.ts).
 * - Writing seals explicitly: the users', pupil accounts' and webhook events' stores pass their values
 *   through `storedUserValues` / `storedPupilName` / `storedWebhookPayload`; the first also writes the
 *   blind indexes (`phone_index`, `email_index`, migration 061) that sign-in, uniqueness and exact
 *   search look values up by.
 * - An account that becomes a child (a class's grade corrected) is sealed when it does (`sealAccount`);
 *   a database from before, or records sealed under an older generation, are sealed again in place by
 *   the sweep (`sealInPlace`, from services/security/record-keys.ts), a batch at a time.
 */
import {
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SqlBool,
  sql,
  type UnknownRow,
} from 'kysely';
import type { Database, User } from './schema.ts';
import { inStoreTransaction } from './transaction.ts';

type Db = Kysely<Database>;

/** The columns whose values are sealed: the sealed form names its column, which the seal binds. */
export const SEALED_COLUMNS = ['phone', 'email', 'fullname', 'display_name', 'birth_year_month', 'payload'] as const;
export type SealedColumn = (typeof SEALED_COLUMNS)[number];
/** The looked-up columns, each with its blind index. */
export type IndexedColumn = 'phone' | 'email';

/** The age bands whose records are sealed: children under 14. */
export const SEALED_BANDS = ['under_8', '8_13'] as const;

export interface RecordSealer {
  /** Whether every account's records are sealed (SEAL_ALL_RECORDS), not only children's. */
  readonly everyone: boolean;
  /** The generation that seals now. */
  readonly generation: () => number;
  seal(column: SealedColumn, value: string): string;
  /** The plain value of a sealed one (reloading the keys when another process rotated them). */
  open(stored: string): Promise<string>;
  /** The generation a stored value is sealed under; undefined for a plain value. */
  sealedUnder(stored: string): number | undefined;
  /** The blind index of a normalised value. */
  index(column: IndexedColumn, value: string): string;
}

/** What a sealed value looks like; a value of this form that does not open is answered as it is. */
const SEALED_FORM = new RegExp(`^r[1-9][0-9]{0,8}\\.(?:${SEALED_COLUMNS.join('|')})\\.v1\\.`);
const R = 'r'.charCodeAt(0);

/**
 * Opens, in place, every sealed value of `rows`. Rows without one (nearly all) are looked over without
 * waiting on anything: the scan is synchronous and only a row holding a sealed value awaits its opening.
 */
export const openRows = (sealer: RecordSealer | undefined, rows: readonly UnknownRow[]): Promise<void> | undefined => {
  if (sealer === undefined) return undefined;
  const found: [UnknownRow, string, string][] = [];
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (typeof value === 'string' && value.charCodeAt(0) === R && SEALED_FORM.test(value)) {
        found.push([row, key, value]);
      }
    }
  }
  if (found.length === 0) return undefined;
  return (async () => {
    for (const [row, key, value] of found) row[key] = await sealer.open(value);
  })();
};

/** The plugin every database handle has (db.ts): it opens what queries answer; it changes no query. */
export class SealedRecords implements KyselyPlugin {
  sealer: RecordSealer | undefined;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const opening = openRows(this.sealer, args.result.rows);
    if (opening !== undefined) await opening;
    return args.result;
  }
}

const pluginOf = (db: Db) =>
  db.getExecutor().plugins.find((plugin): plugin is SealedRecords => plugin instanceof SealedRecords);

/** Seals and opens this database's records from now on (context.ts, once its keys are loaded). */
export const attachRecordSealer = (db: Db, sealer: RecordSealer) => {
  const plugin = pluginOf(db);
  if (plugin === undefined) throw new Error('this database handle has no SealedRecords plugin (store/db.ts)');
  plugin.sealer = sealer;
};

export const recordSealerOf = (db: Db): RecordSealer | undefined => pluginOf(db)?.sealer;

/** Whether the row's own band is a child's (for an update of users that does not know it). */
export const childRow = sql<SqlBool>`age_band in (${sql.join(SEALED_BANDS.map((band) => sql.lit(band)))})`;

/** Whether an account of this band is a child's, whose records are sealed (and whose birthday is not kept). */
export const isSealedBand = (band: User['age_band'] | undefined) =>
  band !== null && band !== undefined && (SEALED_BANDS as readonly string[]).includes(band);

type UserRecordValues = { [C in Exclude<SealedColumn, 'display_name'>]?: string | null };
/**
 * The values to write, typed as given: a record column may hold a `case` expression that Kysely writes
 * as the value (an update that seals by the row's own band), which it takes for any column.
 */
type StoredUserValues<T> = T & { phone_index?: string | null; email_index?: string | null };

const USER_COLUMNS = ['phone', 'email', 'fullname', 'birth_year_month'] as const;

/**
 * A user's values as stored: the record columns sealed when the account is a child's — by `band`, or
 * for `'row'` by the row's own band at the time of the update — and the phone's and e-mail's blind
 * indexes beside them. Without a sealer (a store opened without the server's keys) values stay plain.
 */
export const storedUserValues = <T extends UserRecordValues>(
  db: Db,
  values: T,
  band: User['age_band'] | undefined | 'row',
): StoredUserValues<T> => {
  const sealer = recordSealerOf(db);
  if (sealer === undefined) return values as StoredUserValues<T>;
  const stored: Record<string, unknown> = { ...values };
  for (const column of USER_COLUMNS) {
    const value = values[column];
    if (value === undefined) continue;
    if (column === 'phone' || column === 'email')
      stored[`${column}_index`] = value === null ? null : sealer.index(column, value);
    if (value === null || value === '') continue;
    if (sealer.everyone || (band !== 'row' && isSealedBand(band))) {
      stored[column] = sealer.seal(column, value);
    } else if (band === 'row') {
      stored[column] = sql<string>`case when ${childRow} then ${sealer.seal(column, value)} else ${value} end`;
    }
  }
  return stored as StoredUserValues<T>;
};

/** `value` of `column` sealed (plain without a sealer). */
export const sealedAs = (db: Db, column: SealedColumn, value: string): string =>
  recordSealerOf(db)?.seal(column, value) ?? value;

/** The name a school typed for a pupil, as stored: always sealed (a pupil account is a child's). */
export const storedPupilName = (db: Db, name: string): string => sealedAs(db, 'display_name', name);

/**
 * A webhook event's payload as stored: always sealed, whoever it is about (an event is written before
 * anyone asks whose it is, and may name a new phone); opened when its delivery is claimed.
 */
export const storedWebhookPayload = (db: Db, payload: string): string => sealedAs(db, 'payload', payload);

/** Columns sealed in every row, whoever the row is about, with the key their rows are paged by. */
const ALWAYS_SEALED = [
  { table: 'pupil_accounts', key: 'user_id', column: 'display_name' },
  { table: 'webhook_events', key: 'id', column: 'payload' },
] as const;

/**
 * Where `column` holds `value` (already normalised): the blind index finds a sealed value, the column
 * a plain one that has no index yet (written before migration 061 and not yet sealed in place).
 */
export const holdsRecord = (db: Db, column: IndexedColumn, value: string) =>
  sql<SqlBool>`(${sql.ref(column)} = ${value} or ${sql.ref(`${column}_index`)} = ${
    recordSealerOf(db)?.index(column, value) ?? value
  })`;

const RAW_USER_COLUMNS = ['id', 'age_band', ...USER_COLUMNS, 'phone_index', 'email_index', 'birthday'] as const;
type RawUser = Pick<User, (typeof RAW_USER_COLUMNS)[number]>;

/** What a user row must become: values to write, or undefined when it is stored as it should be. */
const userResealed = async (sealer: RecordSealer, row: RawUser) => {
  const child = isSealedBand(row.age_band);
  const sealed = child || sealer.everyone;
  const plain: UserRecordValues = {};
  // A child's birthday is not kept (profile.ts): one kept from before the account became a child's goes.
  const birthday = child && row.birthday !== null;
  let due =
    birthday || (row.phone !== null && row.phone_index === null) || (row.email !== null && row.email_index === null);
  for (const column of USER_COLUMNS) {
    const stored = row[column];
    if (stored === null || stored === '') continue;
    const generation = sealer.sealedUnder(stored);
    if (sealed ? generation !== sealer.generation() : generation !== undefined) due = true;
    plain[column] = generation === undefined ? stored : await sealer.open(stored);
  }
  if (!due) return undefined;
  const values = { ...plain, ...(birthday ? { birthday: null } : {}) } as Record<string, unknown>;
  for (const column of ['phone', 'email'] as const) {
    if (plain[column] !== undefined) values[`${column}_index`] = sealer.index(column, plain[column] as string);
  }
  for (const column of USER_COLUMNS) {
    const value = plain[column];
    if (sealed && typeof value === 'string') values[column] = sealer.seal(column, value);
  }
  return values;
};

/**
 * Seals one account's records as its band now asks (in the caller's transaction): after its band
 * became a child's. Reads the row as stored, so it writes only what is not yet as it should be.
 */
export const sealAccount = async (db: Db, userId: number) => {
  const sealer = recordSealerOf(db);
  if (sealer === undefined) return;
  const row = await db
    .withoutPlugins()
    .selectFrom('users')
    .select(RAW_USER_COLUMNS)
    .where('id', '=', userId)
    .executeTakeFirst();
  const values = row && (await userResealed(sealer, row));
  if (values) await db.updateTable('users').set(values).where('id', '=', userId).execute();
};

const BATCH = 500;

/**
 * Brings every stored record to what it should be, a batch of rows at a time: children's values sealed
 * under the current generation, blind indexes written, pupils' names and webhook payloads sealed. For a
 * database from before sealing and after a rotation of the record keys; `progress` hears how many rows
 * were rewritten.
 */
export const sealInPlace = async (db: Db, progress: (rewritten: number) => void = () => {}, signal?: AbortSignal) => {
  const sealer = recordSealerOf(db);
  if (sealer === undefined) throw new Error('no record keys: attach a sealer first');
  const raw = db.withoutPlugins();
  let rewritten = 0;
  for (let after = 0; !signal?.aborted; ) {
    const rows = await raw
      .selectFrom('users')
      .select(RAW_USER_COLUMNS)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    const due = (await Promise.all(rows.map(async (row) => ({ row, values: await userResealed(sealer, row) })))).filter(
      (rewrite): rewrite is { row: RawUser; values: Record<string, unknown> } => rewrite.values !== undefined,
    );
    // A batch a transaction; a row changed since it was read (its owner changed a phone) is left as
    // written then: the change sealed it already.
    rewritten += await inStoreTransaction(db, async (tx) => {
      let updated = 0;
      for (const { row, values } of due) {
        const result = await tx
          .updateTable('users')
          .set(values)
          .where('id', '=', row.id)
          .where((eb) =>
            eb.and(USER_COLUMNS.map((column) => eb(column, row[column] === null ? 'is' : '=', row[column]))),
          )
          .executeTakeFirst();
        updated += Number(result.numUpdatedRows);
      }
      return updated;
    });
    after = Number(rows.at(-1)?.id);
    progress(rewritten);
  }
  for (const columns of ALWAYS_SEALED) {
    if (signal?.aborted) break;
    rewritten += await resealColumn(db, sealer, columns, (count) => progress(rewritten + count), signal);
  }
  return rewritten;
};

/**
 * Every value of one always-sealed column brought under the current generation, a batch a transaction
 * (as the users above): a value changed since it was read stays as written, sealed by that change.
 */
const resealColumn = async (
  db: Db,
  sealer: RecordSealer,
  { table, key, column }: (typeof ALWAYS_SEALED)[number],
  progress: (rewritten: number) => void,
  signal?: AbortSignal,
) => {
  const raw = db.withoutPlugins();
  let rewritten = 0;
  for (let after: string | number | undefined; !signal?.aborted; ) {
    let page = raw
      .selectFrom(table)
      .select([sql<string | number>`${sql.ref(key)}`.as('key'), sql<string>`${sql.ref(column)}`.as('value')])
      .orderBy(sql.ref(key))
      .limit(BATCH);
    if (after !== undefined) page = page.where(sql.ref(key), '>', after);
    const rows = await page.execute();
    if (rows.length === 0) break;
    const due = rows.filter((row) => sealer.sealedUnder(row.value) !== sealer.generation());
    const values = await Promise.all(due.map((row) => sealer.open(row.value)));
    rewritten += await inStoreTransaction(db, async (tx) => {
      let updated = 0;
      for (const [i, row] of due.entries()) {
        const sealed = sealer.seal(column, values[i] as string);
        const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sealed}
          where ${sql.ref(key)} = ${row.key} and ${sql.ref(column)} = ${row.value}`.execute(tx);
        updated += Number(result.numAffectedRows ?? 0);
      }
      return updated;
    });
    after = rows.at(-1)?.key;
    progress(rewritten);
  }
  return rewritten;
};

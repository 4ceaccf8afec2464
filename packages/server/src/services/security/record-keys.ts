/**
 * The keys that seal people's records at rest (contacts, names, birth month of children's accounts),
 * and the blind indexes that let sign-in, uniqueness and exact search find a sealed value.
 *
 * Records are sealed under generations of keys: random 256-bit keys kept together in the `record-keys`
 * setting, itself sealed under the keyring's `sealing` key (keyring.ts), so whoever holds only the
 * database opens none of them. A sealed value names its generation and its column
 * (`r<generation>.<column>.` before the AES-256-GCM value of sealed-values.ts, which binds the column as
 * associated data); every generation
 * kept opens, the newest seals. Rotating adds a generation: values sealed before keep opening while
 * they are sealed again under the new one, so a rotation needs no downtime.
 *
 * A blind index is an HMAC of the normalised value under a key derived from the keyring's
 * `identifiers` key, one per column. It does not rotate with the record keys (an index that changed
 * would need every row rewritten before a look-up could trust it), and never opens: it only says
 * whether two values are the same.
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from '../../adapters/delivery.ts';
import { findSetting, putSetting, replaceSetting, settingOrCreate } from '../../store/admin/settings.ts';
import type { Database } from '../../store/schema.ts';
import {
  attachRecordSealer,
  type IndexedColumn,
  type RecordSealer,
  recordSealerOf,
  SEALED_COLUMNS,
  type SealedColumn,
  sealInPlace,
} from '../../store/sealed-records.ts';
import type { Keyring } from './keyring.ts';
import { seal, unseal } from './sealed-values.ts';

const SETTING = 'record-keys';
const SEALED_THROUGH = 'records-sealed-under';

/** The settings a reset of the keyring deletes with it (the record keys are sealed under it). */
export const RECORD_KEY_SETTINGS = [SETTING, SEALED_THROUGH] as const;

export interface RecordKeys {
  /** The generation that seals. */
  current: number;
  /** Every generation kept, by number: each opens what it sealed. */
  generations: ReadonlyMap<number, KeyObject>;
  /** The keyring's key blind indexes derive theirs from. */
  indexKey: KeyObject;
}

type Stored = Record<string, string>;

const sealStored = (keyring: Keyring, stored: Stored) => seal(keyring.sealing, JSON.stringify(stored), SETTING);

const openStored = (keyring: Keyring, sealed: string): Stored => {
  const opened = unseal(keyring.sealing, sealed, SETTING);
  // The keyring opens every other sealed value: a setting it does not open was altered or copied in.
  if (opened === undefined) throw new Error('the record keys do not open with the keyring’s sealing key');
  return JSON.parse(opened) as Stored;
};

const fromStored = (keyring: Keyring, stored: Stored): RecordKeys => {
  const generations = new Map(
    Object.entries(stored).map(([generation, key]) => [
      Number(generation),
      createSecretKey(Buffer.from(key, 'base64url')),
    ]),
  );
  return { current: Math.max(...generations.keys()), generations, indexKey: keyring.identifiers };
};

/** The record keys, made on first use (generation 1; the first of several starting processes wins). */
export const loadRecordKeys = async (db: Kysely<Database>, keyring: Keyring): Promise<RecordKeys> => {
  const sealed = await settingOrCreate(db, SETTING, () =>
    sealStored(keyring, { 1: randomBytes(32).toString('base64url') }),
  );
  return fromStored(keyring, openStored(keyring, sealed));
};

/**
 * `edupass keys rotate-records`: adds a generation, which seals from then on (each process after it
 * reloads its keys); the ones before keep opening. Answers the new keys.
 */
export const rotateRecordKeys = async (db: Kysely<Database>, keyring: Keyring): Promise<RecordKeys> => {
  for (;;) {
    await loadRecordKeys(db, keyring);
    const sealed = await findSetting(db, SETTING);
    if (sealed === undefined) continue;
    const stored = openStored(keyring, sealed);
    const next = Math.max(...Object.keys(stored).map(Number)) + 1;
    const rotated = { ...stored, [next]: randomBytes(32).toString('base64url') };
    // Only over the value read: of two rotations at once, the second adds the generation after.
    const [result] = await replaceSetting(db, SETTING, sealed, sealStored(keyring, rotated));
    if (Number(result?.numUpdatedRows ?? 0) === 1) return fromStored(keyring, rotated);
  }
};

const PREFIX = new RegExp(`^r([1-9][0-9]{0,8})\\.(${SEALED_COLUMNS.join('|')})\\.(v1\\..+)$`, 's');

/** The generation a stored value is sealed under, or undefined for a plain one. */
export const sealedGeneration = (stored: string): number | undefined => {
  const match = PREFIX.exec(stored);
  return match === null ? undefined : Number(match[1]);
};

/** `value` of `column` sealed under the current generation: `r<generation>.<column>.<sealed value>`. */
export const sealRecord = (keys: RecordKeys, column: SealedColumn, value: string): string => {
  const key = keys.generations.get(keys.current);
  if (key === undefined) throw new Error(`record key generation ${keys.current} is missing`);
  return `r${keys.current}.${column}.${seal(key, value, `record:${column}`)}`;
};

/**
 * The plain value of a stored one: a plain value as it is; a sealed one opened with its generation's
 * key, as the column its envelope names (a changed name does not open). Throws when that generation
 * is not among `keys` or the value was altered: a record must not read as empty.
 */
export const openRecord = (keys: RecordKeys, stored: string): string => {
  const match = PREFIX.exec(stored);
  if (match === null) return stored;
  const generation = Number(match[1]);
  const key = keys.generations.get(generation);
  const opened = key === undefined ? undefined : unseal(key, match[3] as string, `record:${match[2]}`);
  if (opened === undefined) {
    throw new Error(`a sealed ${match[2]} does not open (record key generation ${generation})`);
  }
  return opened;
};

const indexKeys = new WeakMap<KeyObject, Map<string, KeyObject>>();

/** The blind index of an already normalised `value` of `column` (base64url HMAC-SHA256). */
export const blindIndex = (keys: RecordKeys, column: IndexedColumn, value: string): string => {
  let perColumn = indexKeys.get(keys.indexKey);
  if (perColumn === undefined) {
    perColumn = new Map();
    indexKeys.set(keys.indexKey, perColumn);
  }
  let key = perColumn.get(column);
  if (key === undefined) {
    key = createSecretKey(
      Buffer.from(hkdfSync('sha256', keys.indexKey.export(), 'edupass', `record blind index v1: ${column}`, 32)),
    );
    perColumn.set(column, key);
  }
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
};

/**
 * The store's sealer (store/sealed-records.ts) over this database's record keys. A value sealed under
 * a generation this process does not know yet (another process rotated) reloads the keys once; a value
 * of the sealed form that still does not open is answered as it is (text someone typed in that form,
 * or an altered record), never as empty and never as an error that would hide the rest of a page.
 */
/**
 * Sealed values opened lately, by their sealed form (which differs at each seal): a child's row read by
 * each request of a sign-in is opened once, not at every read (an AES-GCM opening costs 15–20 µs here).
 */
const RECENTLY_OPENED = 4096;

export const recordSealer = (
  db: Kysely<Database>,
  keyring: Keyring,
  keys: RecordKeys,
  everyone = false,
): RecordSealer => {
  let current = keys;
  const recentlyOpened = new Map<string, string>();
  return {
    everyone,
    generation: () => current.current,
    seal: (column, value) => sealRecord(current, column, value),
    sealedUnder: sealedGeneration,
    index: (column, value) => blindIndex(current, column, value),
    open: async (stored) => {
      const known = recentlyOpened.get(stored);
      if (known !== undefined) return known;
      const generation = sealedGeneration(stored);
      if (generation !== undefined && !current.generations.has(generation)) {
        current = await loadRecordKeys(db.withoutPlugins(), keyring);
      }
      let plain: string;
      try {
        plain = openRecord(current, stored);
      } catch {
        return stored;
      }
      if (recentlyOpened.size >= RECENTLY_OPENED) recentlyOpened.delete(recentlyOpened.keys().next().value as string);
      recentlyOpened.set(stored, plain);
      return plain;
    },
  };
};

/** At start: the record keys loaded and attached to `db` (and `readDb`, a replica): records seal and open from here on. */
export const startSealing = async (
  db: Kysely<Database>,
  keyring: Keyring,
  { readDb = db, everyone = false }: { readDb?: Kysely<Database>; everyone?: boolean } = {},
) => {
  const keys = await loadRecordKeys(db, keyring);
  const sealer = recordSealer(db, keyring, keys, everyone);
  attachRecordSealer(db, sealer);
  if (readDb !== db) attachRecordSealer(readDb, sealer);
};

/**
 * The sweep's first task (platform/housekeeping.ts, at start and hourly, one process at a time): once
 * per generation of the record keys, every stored record brought to it in place — a database from
 * before sealing, the first sweep after `edupass keys rotate-records` or after SEAL_ALL_RECORDS was set.
 * Meanwhile a phone or address not yet indexed is found by its column. Stopped by `signal` (the server
 * stopping), the next sweep starts over, passing what is done without a write.
 */
export const sealRecordsInPlace = async (db: Kysely<Database>, logger: Logger, signal?: AbortSignal) => {
  const sealer = recordSealerOf(db);
  if (sealer === undefined) return { recordsSealed: 0 };
  // What was sealed in place: the generation, and whether for everyone (SEAL_ALL_RECORDS).
  const generation = sealer.generation();
  const state = `${generation}${sealer.everyone ? ':everyone' : ''}`;
  const done = await findSetting(db, SEALED_THROUGH);
  if (done === state || (done === `${generation}:everyone` && !sealer.everyone)) return { recordsSealed: 0 };
  const rewritten = await sealInPlace(
    db,
    (count) => {
      if (count > 0) logger.info({ rewritten: count }, 'sealing children’s records in place');
    },
    signal,
  );
  if (signal?.aborted) return { recordsSealed: rewritten };
  await putSetting(db, SEALED_THROUGH, state);
  return { recordsSealed: rewritten };
};

/** `edupass keys rotate-records`: a new generation of record keys, and every record sealed again under it. */
export const rotateRecords = async (db: Kysely<Database>, keyring: Keyring, logger: Logger, everyone = false) => {
  const { current: generation } = await rotateRecordKeys(db, keyring);
  await startSealing(db, keyring, { everyone });
  const { recordsSealed: rewritten } = await sealRecordsInPlace(db, logger);
  return `Record keys: generation ${generation} seals from now on; ${rewritten} records sealed again under it (every generation before still opens).`;
};

/**
 * The keys that seal people's records at rest (contacts, names, birth month of children's accounts),
 * and the blind indexes that let sign-in, uniqueness and exact search find a sealed value.
 *
 * Records are sealed under generations of keys: random 256-bit keys kept together in the `record-keys`
 * setting, itself sealed under the keyring's `sealing` key (keyring.ts), so whoever holds only the
 * database opens none of them. A sealed value names its generation (`r<generation>.` before the
 * AES-256-GCM value of sealed-values.ts, with the column's name as associated data); every generation
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
import { findSetting, replaceSetting, settingOrCreate } from '../../store/admin/settings.ts';
import type { Database } from '../../store/schema.ts';
import type { Keyring } from './keyring.ts';
import { seal, unseal } from './sealed-values.ts';

const SETTING = 'record-keys';

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

const PREFIX = /^r([1-9][0-9]{0,8})\.(v1\..+)$/s;

/** Whether a stored value is sealed (by its form: a plain phone, address, name or month never has it). */
export const isSealedRecord = (stored: string): boolean => PREFIX.test(stored);

/** The generation a stored value is sealed under, or undefined for a plain one. */
export const sealedGeneration = (stored: string): number | undefined => {
  const match = PREFIX.exec(stored);
  return match === null ? undefined : Number(match[1]);
};

/** `value` of `column` sealed under the current generation. */
export const sealRecord = (keys: RecordKeys, column: string, value: string): string => {
  const key = keys.generations.get(keys.current);
  if (key === undefined) throw new Error(`record key generation ${keys.current} is missing`);
  return `r${keys.current}.${seal(key, value, `record:${column}`)}`;
};

/**
 * The plain value of a stored one: a plain value as it is; a sealed one opened with its generation's
 * key. Throws when that generation is gone or the value was altered: a record must not read as empty.
 */
export const openRecord = (keys: RecordKeys, column: string, stored: string): string => {
  const match = PREFIX.exec(stored);
  if (match === null) return stored;
  const generation = Number(match[1]);
  const key = keys.generations.get(generation);
  const opened = key === undefined ? undefined : unseal(key, match[2] as string, `record:${column}`);
  if (opened === undefined) {
    throw new Error(`a sealed ${column} does not open (record key generation ${generation})`);
  }
  return opened;
};

const indexKeys = new WeakMap<KeyObject, Map<string, KeyObject>>();

/** The blind index of an already normalised `value` of `column` (base64url HMAC-SHA256). */
export const blindIndex = (keys: RecordKeys, column: string, value: string): string => {
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

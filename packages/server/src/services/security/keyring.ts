/**
 * The keys stored data depends on live in the database as one keyring, sealed under a key derived
 * from JWT_SECRET (envelope encryption). Rotating JWT_SECRET seals that one row again: no stored hash
 * and no sealed value is keyed again, so nothing stored stops matching, during the rotation or after.
 *
 * - `codes` keys stored hashes: one-time codes and tickets, applications' client secrets, recovery
 *   codes, the sessions of school sign-ins, the security log's identity groups.
 * - `refresh` derives refresh-token successors (a retried refresh gets the same answer).
 * - `identifiers` keys the hashes of people's ids in schools' systems (sign-in and roster links).
 * - `sealing` seals stored secrets (AES-256-GCM): console-set vendor keys, authenticator apps'
 *   secrets, signing keys' private halves, webhook and school-connector secrets, initial passwords.
 *
 * A new database gets random keys. A database from before the keyring gets the keys earlier
 * versions derived from the secret (where `identifiers` and `sealing` were one key), so what they
 * stored keeps matching.
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Config, ConfigError } from '../../config/config.ts';
import type { Logger } from '../../logger.ts';
import { deleteSetting, findSetting, replaceSetting, settingOrCreate } from '../../store/admin/settings.ts';
import type { Database } from '../../store/schema.ts';
import { RECORD_KEY_SETTINGS } from './record-keys.ts';
import { seal, unseal } from './sealed-values.ts';

const SETTING = 'keyring';
const NAMES = ['codes', 'refresh', 'identifiers', 'sealing'] as const;
type KeyName = (typeof NAMES)[number];
export type Keyring = Record<KeyName, KeyObject>;

/** The key that seals the keyring, from JWT_SECRET (or JWT_SECRET_PREVIOUS while rotating). */
const wrappingKey = (secret: string) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'edupass', 'keyring: wrapping key v1', 32)));

/** The keys as versions before the keyring derived them from the secret. */
const derivedKeys = (secret: string): Record<KeyName, Buffer> => {
  const derive = (purpose: string) => createHmac('sha256', secret).update(purpose).digest();
  const settings = Buffer.from(hkdfSync('sha256', secret, 'edupass', 'console settings: sealed values v1', 32));
  return { codes: derive('codes'), refresh: derive('refresh'), identifiers: settings, sealing: settings };
};

const randomKeys = (): Record<KeyName, Buffer> =>
  Object.fromEntries(NAMES.map((name) => [name, randomBytes(32)])) as Record<KeyName, Buffer>;

const sealKeyring = (secret: string, keys: Record<KeyName, Buffer>) =>
  seal(
    wrappingKey(secret),
    JSON.stringify(Object.fromEntries(NAMES.map((name) => [name, keys[name].toString('base64url')]))),
    SETTING,
  );

const openKeyring = (secret: string | undefined, sealed: string): Keyring | undefined => {
  const opened = secret === undefined ? undefined : unseal(wrappingKey(secret), sealed, SETTING);
  if (opened === undefined) return undefined;
  const raw = JSON.parse(opened) as Record<KeyName, string>;
  return Object.fromEntries(
    NAMES.map((name) => [name, createSecretKey(Buffer.from(raw[name], 'base64url'))]),
  ) as Keyring;
};

/**
 * The key of the audit's chains (store/admin/audit-chain.ts), derived from the sealing key: like the
 * keyring, out of reach of whoever holds only the database. A reset keyring makes a new one, and the
 * links written before no longer verify.
 */
export const auditChainKey = (keyring: Keyring): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', keyring.sealing.export(), 'edupass', 'audit chain v1', 32)));

export const KEYRING_SEALED_ELSEWHERE =
  'JWT_SECRET does not open the keyring (the keys of stored hashes and secrets): it was sealed under another ' +
  'secret. Fix: set JWT_SECRET_PREVIOUS to the secret before (the keyring is then sealed again under ' +
  'JWT_SECRET). If that secret is lost, `npx edupass keys reset-keyring` starts a new keyring, and what ' +
  'the old one keyed is lost with it (it lists what).';

export interface Secrets {
  secret: string;
  previous: string | undefined;
}

/**
 * JWT_SECRET (or its file), else — development only, config.ts refuses production without it — a
 * secret generated once and kept in the database; and JWT_SECRET_PREVIOUS while rotating.
 */
export const serverSecrets = async (
  db: Kysely<Database>,
  config: Pick<Config, 'jwtSecret' | 'jwtSecretPrevious'>,
): Promise<Secrets> => ({
  secret: config.jwtSecret ?? (await settingOrCreate(db, 'secret', () => randomBytes(48).toString('base64url'))),
  previous: config.jwtSecretPrevious,
});

/**
 * The keyring, made on first start (random for a `fresh` database, else derived as above; the first
 * of several starting processes wins), sealed again under JWT_SECRET when it opens only with
 * JWT_SECRET_PREVIOUS. Refuses to start when neither opens it: making a new one would silently
 * unlink every school account and void every client secret.
 */
export const loadKeyring = async (
  db: Kysely<Database>,
  { secret, previous }: Secrets,
  fresh: boolean,
  logger: Logger,
): Promise<Keyring> => {
  const sealed = await settingOrCreate(db, SETTING, () =>
    sealKeyring(secret, fresh ? randomKeys() : derivedKeys(secret)),
  );
  const current = openKeyring(secret, sealed);
  if (current !== undefined) return current;
  const rotated = openKeyring(previous, sealed);
  if (rotated === undefined) throw new ConfigError([KEYRING_SEALED_ELSEWHERE]);
  const resealed = sealKeyring(
    secret,
    Object.fromEntries(NAMES.map((name) => [name, rotated[name].export()])) as Record<KeyName, Buffer>,
  );
  // Only over the value read: another process sealing it at the same time writes the same keys.
  await replaceSetting(db, SETTING, sealed, resealed);
  logger.info({}, 'the keyring is now sealed under the current JWT_SECRET');
  return rotated;
};

/** Which secret opens the stored keyring: `none` when there is none yet, `neither` when no secret given does. */
export const keyringState = async (
  db: Kysely<Database>,
  { secret, previous }: Secrets,
): Promise<'none' | 'current' | 'previous' | 'neither'> => {
  const sealed = await findSetting(db, SETTING);
  if (sealed === undefined) return 'none';
  if (openKeyring(secret, sealed) !== undefined) return 'current';
  return openKeyring(previous, sealed) === undefined ? 'neither' : 'previous';
};

/**
 * `edupass keys reset-keyring`: only when neither secret opens the keyring. Deletes it; the next start
 * makes one from JWT_SECRET. Answers whether it did, and what to tell the operator.
 */
export const resetKeyring = async (
  db: Kysely<Database>,
  secrets: Secrets,
): Promise<{ reset: boolean; message: string }> => {
  const state = await keyringState(db, secrets);
  if (state === 'none') return { reset: false, message: 'There is no keyring yet: the next start makes one.' };
  if (state !== 'neither') {
    return {
      reset: false,
      message: `The keyring opens with ${state === 'current' ? 'JWT_SECRET' : 'JWT_SECRET_PREVIOUS'}: nothing to reset.`,
    };
  }
  await deleteSetting(db, SETTING);
  for (const setting of RECORD_KEY_SETTINGS) await deleteSetting(db, setting);
  const message = [
    'The keyring is deleted; the next start makes a new one. What the old one keyed is lost:',
    '  - applications’ client secrets: make new ones (`edupass apps rotate-secret <client_id>` or the console);',
    '  - authenticator apps and recovery codes (passkeys still work): an operator resets those users’',
    '    second factor (console, per user); for operators, `edupass admin create <phone>` makes one to do it;',
    '  - console-set captcha keys and school-connector client secrets: enter them again;',
    '  - webhook endpoints: remove each and add it again (it gets a new secret);',
    '  - links to schools’ systems: a school account signing in, or a roster imported, is not matched to',
    '    the account it made before;',
    '  - signing keys’ private halves: a new signing key takes over at start (tokens already issued verify);',
    '  - children’s sealed records (the phone, e-mail, name and birth month of accounts under 14, the names',
    '    schools gave pupils): no longer readable; such a child signs in by username or card and adds a phone',
    '    again, and a school imports its roster again to name its pupils.',
  ].join('\n');
  return { reset: true, message };
};

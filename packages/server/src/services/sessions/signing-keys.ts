/**
 * The asymmetric keys that sign access tokens (ES256: P-256 ECDSA, which every JWT library and every
 * Web Crypto implementation verifies). They live in the database, their private halves sealed with
 * the secret from outside it, so every server process signs and verifies with the same set: each
 * reads it from the database and keeps it for a few seconds (never a key of its own).
 *
 * Each generation also holds the keys that sign the OpenID Connect provider's ID tokens: RS256 (which
 * OpenID Connect Discovery requires be offered) and ES256, apart from the access-token key (their own
 * `kid`s), published and retired with it. Rows made before ID-token keys existed get theirs on first
 * read.
 *
 * Rotation (`rotateSigningKey`, from the CLI or the console) adds a `next` key that is published at
 * once and signs only after PUBLICATION_DELAY_MS, so clients holding a cached JWKS have fetched it
 * before a token names it; the key it replaces stays published until its last token expires
 * (signing-key-states.ts). The first key is created on first start.
 */
import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { settingOrCreate } from '../../store/admin/settings.ts';
import {
  addIdTokenKeys,
  deleteSigningKeysBefore,
  insertSigningKey,
  listSigningKeyRows,
  type SigningKeyRow,
} from '../../store/sessions/signing-keys.ts';
import { seal, unseal } from '../security/sealed-values.ts';
import { type SigningKeyStatus, signingKeyStates } from './signing-key-states.ts';

export const SIGNING_ALG = 'ES256';
/** The algorithms of ID tokens, the default first (RS256: OpenID Connect Discovery 1.0 §3). */
export const ID_TOKEN_ALGS = ['RS256', 'ES256'] as const;
/** How long a new key is published before it signs (clients cache the JWKS for JWKS_MAX_AGE_SECONDS). */
export const PUBLICATION_DELAY_MS = 15 * 60_000;
export const JWKS_MAX_AGE_SECONDS = 300;
/** How long a process keeps the key set it read. */
const CACHE_MS = 5_000;
/** An unknown `kid` makes a process read the set again at most this often. */
const UNKNOWN_KID_RELOAD_MS = 1_000;

type KeyContext = Pick<Context, 'db' | 'keys' | 'config' | 'now'>;

interface PublishedKey {
  status: SigningKeyStatus;
  publicJwk: JWK;
  verifier: KeyObject;
  row: SigningKeyRow;
}

export interface KeySet {
  published: PublishedKey[];
  signer: PublishedKey;
  /** Changes whenever the published set or the signer changes. */
  version: string;
  /** When the first asymmetric key was made: HS256 tokens issued before it verify until they expire. */
  asymmetricSince: number;
  statuses: SigningKeyStatus[];
}

/** The longest a token signed now may live: keys stay published this long after they stop signing. */
const longestTokenMs = (ctx: KeyContext) =>
  Math.max(ctx.config.accessTokenTtlSeconds, ctx.config.sessionTokenTtlSeconds) * 1000;

const sealName = (kid: string) => `signing-key:${kid}`;
const idTokenSealName = (kid: string) => `id-token-keys:${kid}`;

const newJwkPair = async (alg: string) => {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const exported = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(exported);
  const publicJwk: JWK = { ...exported, kid, alg, use: 'sig' };
  return { kid, publicJwk, privateJwk: { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' } };
};

/** The ID-token keys of the generation whose access-token key is `kid`, sealed under that kid. */
const newIdTokenKeys = async (ctx: KeyContext, kid: string) => {
  const pairs = await Promise.all(ID_TOKEN_ALGS.map((alg) => newJwkPair(alg)));
  return {
    id_token_public_jwks: JSON.stringify(pairs.map((pair) => pair.publicJwk)),
    id_token_private_sealed: seal(
      ctx.keys.sealing,
      JSON.stringify(pairs.map((pair) => pair.privateJwk)),
      idTokenSealName(kid),
    ),
  };
};

const newKeyRow = async (ctx: KeyContext, generation: number, signsFrom: number): Promise<SigningKeyRow> => {
  const { kid, publicJwk, privateJwk } = await newJwkPair(SIGNING_ALG);
  return {
    generation,
    kid,
    alg: SIGNING_ALG,
    public_jwk: JSON.stringify(publicJwk),
    private_sealed: seal(ctx.keys.sealing, JSON.stringify(privateJwk), sealName(kid)),
    created_at: ctx.now(),
    signs_from: signsFrom,
    ...(await newIdTokenKeys(ctx, kid)),
  };
};

/**
 * The private JWK of a key; undefined when it does not open (sealed under a keyring that was reset,
 * `edupass keys reset-keyring`).
 */
const privateJwkOf = (ctx: KeyContext, row: SigningKeyRow): JWK | undefined => {
  const opened = unseal(ctx.keys.sealing, row.private_sealed, sealName(row.kid));
  return opened === undefined ? undefined : (JSON.parse(opened) as JWK);
};

/** The private ID-token JWKs of a generation, as privateJwkOf opens them. */
const idTokenPrivateJwks = (ctx: KeyContext, row: SigningKeyRow): JWK[] => {
  if (row.id_token_private_sealed === null) return [];
  const opened = unseal(ctx.keys.sealing, row.id_token_private_sealed, idTokenSealName(row.kid));
  return opened === undefined ? [] : (JSON.parse(opened) as JWK[]);
};

const readRows = async (ctx: KeyContext): Promise<SigningKeyRow[]> => {
  const rows = await listSigningKeyRows(ctx.db);
  if (rows.length === 0) {
    // First start: one key, signing at once. Processes starting together agree on generation 1.
    await insertSigningKey(ctx.db, await newKeyRow(ctx, 1, ctx.now()));
    return listSigningKeyRows(ctx.db);
  }
  const withoutIdTokenKeys = rows.filter((row) => row.id_token_public_jwks === null);
  if (withoutIdTokenKeys.length === 0) return rows;
  // Keys from before ID tokens had their own: the first process to fill a row wins.
  for (const row of withoutIdTokenKeys)
    await addIdTokenKeys(ctx.db, row.generation, await newIdTokenKeys(ctx, row.kid));
  return listSigningKeyRows(ctx.db);
};

const loadKeySet = async (ctx: KeyContext): Promise<KeySet> => {
  const rows = await readRows(ctx);
  const asymmetricSince = Number(
    await settingOrCreate(ctx.db, 'signing_keys_since', () => String(Math.min(...rows.map((row) => row.created_at)))),
  );
  const statuses = signingKeyStates(rows, ctx.now(), longestTokenMs(ctx));
  const published: PublishedKey[] = [];
  for (const [index, status] of statuses.entries()) {
    const row = rows[index] as SigningKeyRow;
    if (status.state === 'expired') continue;
    const publicJwk = JSON.parse(row.public_jwk) as JWK;
    published.push({
      status,
      publicJwk,
      row,
      verifier: createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }),
    });
  }
  // The signer first; a clock set back before every key's start falls back to the oldest key.
  published.sort((a, b) => Number(b.status.state === 'signing') - Number(a.status.state === 'signing'));
  const signer = published[0] as PublishedKey;
  const version = createHash('sha256')
    .update(JSON.stringify(published.map((key) => [key.status.kid, key.status.state])))
    .digest('base64url')
    .slice(0, 16);
  return { published, signer, version, asymmetricSince, statuses };
};

interface Cached {
  set: Promise<KeySet>;
  loadedAt: number;
}
const cache = new WeakMap<KeyContext, Cached>();

/** The key set as read within the last few seconds (`fresh`: read it now). */
export const keySet = (ctx: KeyContext, fresh = false): Promise<KeySet> => {
  const cached = cache.get(ctx);
  if (!fresh && cached !== undefined && ctx.now() - cached.loadedAt < CACHE_MS) return cached.set;
  const set = loadKeySet(ctx);
  cache.set(ctx, { set, loadedAt: ctx.now() });
  set.catch(() => cache.delete(ctx));
  return set;
};

const lastUnknownReload = new WeakMap<KeyContext, number>();

/** The public key of a published `kid`: an unknown one makes the set be read again (another process rotated). */
export const verificationKey = async (ctx: KeyContext, kid: string): Promise<KeyObject | undefined> => {
  const found = (await keySet(ctx)).published.find((key) => key.status.kid === kid);
  if (found !== undefined) return found.verifier;
  const last = lastUnknownReload.get(ctx) ?? Number.NEGATIVE_INFINITY;
  if (ctx.now() - last < UNKNOWN_KID_RELOAD_MS) return undefined;
  lastUnknownReload.set(ctx, ctx.now());
  return (await keySet(ctx, true)).published.find((key) => key.status.kid === kid)?.verifier;
};

const signerKeys = new WeakMap<SigningKeyRow, KeyObject | undefined>();

/**
 * The private key of a row as a node:crypto KeyObject: signing with it (`crypto.sign`, synchronous)
 * costs about half what WebCrypto's asynchronous sign did, a third of a token refresh (bench/server).
 */
const importedSigner = (ctx: KeyContext, row: SigningKeyRow): KeyObject | undefined => {
  if (signerKeys.has(row)) return signerKeys.get(row);
  const jwk = privateJwkOf(ctx, row);
  const key = jwk === undefined ? undefined : createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
  signerKeys.set(row, key);
  return key;
};

/**
 * The key that signs now, with its `kid`. When its private half does not open (sealed under a keyring
 * since reset, `edupass keys reset-keyring`), a new key takes over at once; tokens signed before
 * still verify by the public key.
 */
export const currentSigner = async (ctx: KeyContext): Promise<{ kid: string; key: KeyObject }> => {
  const { signer } = await keySet(ctx);
  const key = importedSigner(ctx, signer.row);
  if (key !== undefined) return { kid: signer.status.kid, key };
  await rotateSigningKey(ctx, true).catch(() => undefined);
  const replaced = (await keySet(ctx, true)).signer;
  const replacement = importedSigner(ctx, replaced.row);
  if (replacement === undefined) throw new Error(`signing key ${replaced.status.kid} does not open with the keyring`);
  return { kid: replaced.status.kid, key: replacement };
};

/** What the OpenID Connect provider and the JWKS endpoint read. */
export interface SigningKeys {
  /**
   * Private JWKs of every published key, with `kid`, `alg` and `use: 'sig'`: the ID-token keys first
   * (the signing generation's before the others: the provider signs with the first key of an
   * algorithm), then the access-token keys, the signing one first.
   */
  privateJwks(): Promise<{ keys: JWK[] }>;
  /** The `kid` of the key that signs access tokens now. */
  accessTokenKid(): Promise<string>;
  publicJwks(): Promise<{ keys: JWK[] }>;
  version(): Promise<string>;
}

export const signingKeys = (ctx: KeyContext): SigningKeys => ({
  async privateJwks() {
    // A signing generation whose private halves do not open is replaced first, as for access tokens.
    await currentSigner(ctx);
    const { published } = await keySet(ctx);
    const idTokenKeys = published.flatMap((key) => idTokenPrivateJwks(ctx, key.row));
    const accessKeys = published.map((key) => privateJwkOf(ctx, key.row));
    return { keys: [...idTokenKeys, ...accessKeys.filter((key): key is JWK => key !== undefined)] };
  },
  async accessTokenKid() {
    return (await keySet(ctx)).signer.status.kid;
  },
  async publicJwks() {
    return { keys: (await keySet(ctx)).published.map((key) => key.publicJwk) };
  },
  async version() {
    return (await keySet(ctx)).version;
  },
});

/** Every key and where it stands (the CLI's `keys list`, the console). */
export const listSigningKeys = async (ctx: KeyContext): Promise<SigningKeyStatus[]> =>
  (await keySet(ctx, true)).statuses;

/**
 * Adds the next key: published now, signing after PUBLICATION_DELAY_MS (`immediately`: at once, when
 * the current key must stop signing now). Keys whose last token has expired are removed.
 */
export const rotateSigningKey = async (ctx: KeyContext, immediately = false): Promise<SigningKeyStatus> => {
  const rows = await readRows(ctx);
  const last = rows[rows.length - 1] as SigningKeyRow;
  const now = ctx.now();
  const signsFrom = immediately ? now : Math.max(now + PUBLICATION_DELAY_MS, last.signs_from);
  const row = await newKeyRow(ctx, last.generation + 1, signsFrom);
  if (!(await insertSigningKey(ctx.db, row))) {
    throw invalidRequest('Another rotation of the signing keys ran at the same moment. List the keys, then try again.');
  }
  const statuses = signingKeyStates([...rows, row], now, longestTokenMs(ctx));
  const oldestKept = statuses.find((status) => status.state !== 'expired');
  if (oldestKept !== undefined) await deleteSigningKeysBefore(ctx.db, oldestKept.generation);
  await keySet(ctx, true);
  return statuses[statuses.length - 1] as SigningKeyStatus;
};

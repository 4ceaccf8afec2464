/**
 * The asymmetric keys that sign what EduPass issues (identity tokens), kept sealed in the database.
 * `privateJwks` lists the signing key first; `version` changes whenever the set changes, so holders
 * of a built keystore know to rebuild it. Rotation puts a new key first and keeps the old ones, which
 * still verify what they signed.
 */
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Context } from '../context.ts';
import { settingOrCreate } from '../store/settings.ts';
import { sha256 } from './hashing.ts';
import { seal, unsealEither } from './sealed-values.ts';

const SETTING = 'signing-keys';

export interface SigningKeys {
  privateJwks(): Promise<{ keys: JWK[] }>;
  publicJwks(): Promise<{ keys: JWK[] }>;
  version(): Promise<string>;
}

type KeyContext = Pick<Context, 'db' | 'keys'>;

const newKey = async (): Promise<JWK> => {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: crypto.randomUUID(), alg: 'EdDSA', use: 'sig' };
};

const sealedSet = async (ctx: KeyContext, keys: JWK[]) => seal(ctx.keys.settings, JSON.stringify(keys), SETTING);

const readSet = async (ctx: KeyContext): Promise<JWK[]> => {
  const existing = await ctx.db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirst();
  let stored = existing?.value;
  if (stored === undefined) {
    const first = await sealedSet(ctx, [await newKey()]);
    stored = await settingOrCreate(ctx.db, SETTING, () => first);
  }
  const opened = unsealEither(ctx.keys, stored, SETTING);
  if (opened === undefined) throw new Error('the signing keys cannot be opened with the current secret');
  return JSON.parse(opened.value) as JWK[];
};

const publicPart = ({ d: _private, ...rest }: JWK): JWK => rest;

export const signingKeys = (ctx: KeyContext): SigningKeys => ({
  privateJwks: async () => ({ keys: await readSet(ctx) }),
  publicJwks: async () => ({ keys: (await readSet(ctx)).map(publicPart) }),
  version: async () => sha256((await readSet(ctx)).map((key) => key.kid).join(',')),
});

/** Puts a fresh key first (it signs from now on); the previous ones stay to verify. */
export const rotateSigningKeys = async (ctx: KeyContext): Promise<void> => {
  const keys = await readSet(ctx);
  const next = await sealedSet(ctx, [await newKey(), ...keys.slice(0, 2)]);
  await ctx.db.updateTable('settings').set({ value: next }).where('key', '=', SETTING).execute();
};

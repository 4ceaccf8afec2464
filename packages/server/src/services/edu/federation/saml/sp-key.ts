/**
 * EduPass's signing key as a SAML service provider: it signs the LogoutResponses of single logout
 * (SAML 2.0 requires them signed) and is published in the SP metadata as a self-signed certificate,
 * of which SAML reads only the key. Made on first use and kept in the database, the private half
 * sealed with the keyring: every process signs with the same key, the first to store one wins. A key
 * that no longer opens (the keyring was reset) is replaced, and the metadata must be registered again.
 */
import { KeyObject, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Context } from '../../../../context.ts';
import { findSetting, replaceSetting, settingOrCreate } from '../../../../store/admin/settings.ts';
import { seal, unseal } from '../../../security/sealed-values.ts';

const SETTING = 'saml-sp-key';
const ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
};
const YEARS_20_MS = 20 * 365.25 * 86_400_000;

export interface SpSigningKey {
  certPem: string;
  privateKeyPem: string;
}

interface Stored {
  cert: string;
  private_sealed: string;
}

/** A new RSA-2048 key and its self-signed certificate, named after the service provider's host. */
const newKey = async (ctx: Context, entityId: string): Promise<string> => {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = ctx.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(8).toString('hex'),
      name: `CN=${new URL(entityId).hostname}`,
      notBefore: new Date(now),
      notAfter: new Date(now + YEARS_20_MS),
      signingAlgorithm: ALGORITHM,
      keys,
    },
    webcrypto as Crypto,
  );
  const privateKeyPem = String(KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }));
  const stored: Stored = { cert: cert.toString('pem'), private_sealed: seal(ctx.keys.sealing, privateKeyPem, SETTING) };
  return JSON.stringify(stored);
};

const opened = (ctx: Context, value: string | undefined): SpSigningKey | undefined => {
  if (value === undefined || value === '') return undefined;
  const stored = JSON.parse(value) as Stored;
  const privateKeyPem = unseal(ctx.keys.sealing, stored.private_sealed, SETTING);
  return privateKeyPem === undefined ? undefined : { certPem: stored.cert, privateKeyPem };
};

const load = async (ctx: Context, entityId: string): Promise<SpSigningKey> => {
  // An empty row first: processes starting together then replace the same value, and one key wins.
  const value = await settingOrCreate(ctx.db, SETTING, () => '');
  const key = opened(ctx, value);
  if (key !== undefined) return key;
  if (value !== '')
    ctx.logger.warn({}, 'the SAML signing key does not open (the keyring was reset): a new one is made');
  await replaceSetting(ctx.db, SETTING, value, await newKey(ctx, entityId));
  const stored = opened(ctx, await findSetting(ctx.db, SETTING));
  if (stored === undefined) throw new Error('the SAML signing key could not be stored');
  return stored;
};

const loaded = new WeakMap<Context, Promise<SpSigningKey>>();

/** The service provider's signing key (`entityId` names its certificate when one is made). */
export const spSigningKey = (ctx: Context, entityId: string): Promise<SpSigningKey> => {
  let key = loaded.get(ctx);
  if (key === undefined) {
    key = load(ctx, entityId);
    loaded.set(ctx, key);
    key.catch(() => loaded.delete(ctx));
  }
  return key;
};

/**
 * Secrets kept in the database (console-set vendor keys, authenticator apps' secrets, signing keys'
 * private halves, …) are sealed with AES-256-GCM under the keyring's `sealing` key (keyring.ts): a
 * fresh 96-bit IV each time, and the row's name as associated data, so a sealed value copied into
 * another row (another vendor's or field's) does not open.
 */
import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export const seal = (key: KeyObject, plaintext: string, name: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
};

/** The plaintext, or undefined when the value was sealed under another key or altered. */
export const unseal = (key: KeyObject, sealed: string, name: string): string | undefined => {
  const [version, iv, body, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined || rest.length > 0) {
    return undefined;
  }
  try {
    // A fixed tag length: a shortened tag would be easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
};

/**
 * The server secret, read by `loadConfig` (config.ts) with the same rules. It seals the keyring
 * (services/security/keyring.ts) and must come from outside the database it protects: a copy of the
 * database alone then opens no stored secret and tests no stored hash.
 *
 * JWT_SECRET or JWT_SECRET_FILE        the current secret (≥ 32 characters); a file is read once at start
 *                                      and trimmed. Required with NODE_ENV=production. Unset in
 *                                      development: a secret is generated and kept in the database.
 * JWT_SECRET_PREVIOUS or …_FILE        the secret before the current one, while rotating: the keyring
 *                                      sealed under it is sealed again under the current one at start.
 */
import { readFileSync } from 'node:fs';
import type { Readers } from './readers.ts';

export interface SecretsConfig {
  /** Seals the keyring; undefined: kept in the database (development only). */
  jwtSecret: string | undefined;
  /** The secret before the current one: opens the keyring to seal it again; verifies HS256 tokens. */
  jwtSecretPrevious: string | undefined;
}

const FIX = 'JWT_SECRET=$(openssl rand -base64 48), or JWT_SECRET_FILE=/path/to/a/file holding such a value';

const secretFrom = ({ str }: Readers, problems: string[], name: string): string | undefined => {
  const value = str(name);
  const file = str(`${name}_FILE`);
  if (value !== undefined && file !== undefined) {
    problems.push(`${name} and ${name}_FILE are both set. Fix: keep one of them.`);
    return value;
  }
  if (file === undefined) return value;
  try {
    const content = readFileSync(file, 'utf8').trim();
    if (content === '') problems.push(`${name}_FILE=${file} is empty. Fix: write the secret into it (${FIX}).`);
    return content === '' ? undefined : content;
  } catch (error) {
    problems.push(
      `${name}_FILE=${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Fix: check the path and that the server's user may read it.`,
    );
    return undefined;
  }
};

export const readSecretsConfig = (read: Readers, problems: string[], production: boolean): SecretsConfig => {
  const jwtSecret = secretFrom(read, problems, 'JWT_SECRET');
  const jwtSecretPrevious = secretFrom(read, problems, 'JWT_SECRET_PREVIOUS');
  for (const [name, secret] of [
    ['JWT_SECRET', jwtSecret],
    ['JWT_SECRET_PREVIOUS', jwtSecretPrevious],
  ] as const) {
    if (secret !== undefined && secret.length < 32) {
      problems.push(`${name} must be at least 32 characters. Fix: ${name}=$(openssl rand -base64 48)`);
    }
  }
  if (production && jwtSecret === undefined) {
    problems.push(
      `NODE_ENV=production needs a signing secret from outside the database: without one, a copy of the database forges tokens and opens console secrets. Fix: ${FIX} (the same on every server).`,
    );
  }
  if (jwtSecretPrevious !== undefined && jwtSecret === undefined) {
    problems.push('JWT_SECRET_PREVIOUS is set without JWT_SECRET. Fix: set JWT_SECRET to the new secret as well.');
  }
  if (jwtSecretPrevious !== undefined && jwtSecretPrevious === jwtSecret) {
    problems.push(
      'JWT_SECRET_PREVIOUS equals JWT_SECRET. Fix: set JWT_SECRET to the new secret, or unset JWT_SECRET_PREVIOUS.',
    );
  }
  return { jwtSecret, jwtSecretPrevious };
};

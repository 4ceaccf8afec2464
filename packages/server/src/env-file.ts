/**
 * `.env` support with Node's own loader (`process.loadEnvFile`): the server and the CLI read
 * `./.env` (or the file EDUPASS_ENV_FILE names) when it exists. A variable already set in the
 * environment wins over the file, so a process manager's settings override it.
 */
import { existsSync } from 'node:fs';

/** Loads the file into process.env; answers its path, or undefined when there is none. */
export const loadEnvFile = (path = process.env.EDUPASS_ENV_FILE ?? '.env'): string | undefined => {
  if (!existsSync(path)) {
    if (process.env.EDUPASS_ENV_FILE !== undefined) throw new Error(`EDUPASS_ENV_FILE=${path}: no such file.`);
    return undefined;
  }
  process.loadEnvFile(path);
  return path;
};

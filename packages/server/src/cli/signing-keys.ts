/** `edupass keys list` and `edupass keys rotate [--now]`: the keys that sign access tokens. */
import type { Context } from '../context.ts';
import type { SigningKeyStatus } from '../services/sessions/signing-key-states.ts';
import { listSigningKeys, rotateSigningKey } from '../services/sessions/signing-keys.ts';

const at = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString());

const line = (key: SigningKeyStatus) =>
  [
    String(key.generation).padEnd(4),
    key.state.padEnd(9),
    key.alg.padEnd(6),
    key.kid.padEnd(44),
    `signs from ${at(key.signsFrom)}`,
    key.publishedUntil === undefined ? '' : `  published until ${at(key.publishedUntil)}`,
  ].join(' ');

export const listKeys = async (ctx: Context): Promise<string> =>
  ['gen  state     alg    kid', ...(await listSigningKeys(ctx)).map(line)].join('\n');

export const rotateKeys = async (ctx: Context, immediately: boolean): Promise<string> => {
  const key = await rotateSigningKey(ctx, immediately);
  const when = immediately
    ? 'It signs new tokens now.'
    : `It is published now and signs new tokens from ${at(key.signsFrom)}.`;
  return `New signing key ${key.kid}. ${when} The key it replaces stays published until its last token expires.`;
};

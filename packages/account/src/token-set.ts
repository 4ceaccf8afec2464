import type { TokenSet } from '@edupass/protocol';
import { isRecord } from './parse.ts';

type Token = { token: string; expires_in: number; type?: unknown };

const isToken = (value: unknown): value is Token =>
  isRecord(value) && typeof value.token === 'string' && value.token !== '' && typeof value.expires_in === 'number';

/** The token set of compatibility.md, or `undefined` when `value` has another shape. */
export const parseTokenSet = (value: unknown): TokenSet | undefined => {
  if (!isRecord(value) || !isToken(value.access) || !isToken(value.refresh)) return undefined;
  const { access, refresh } = value;
  return typeof access.type === 'string'
    ? {
        access: { token: access.token, type: access.type, expires_in: access.expires_in },
        refresh: { token: refresh.token, expires_in: refresh.expires_in },
      }
    : undefined;
};

import type { TokenSet } from '@edupass/protocol';
import { isRecord } from '@edupass/protocol';

const isToken = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && typeof value.token === 'string' && value.token !== '' && typeof value.expires_in === 'number';

/** The token set of compatibility.md, or `undefined` when `value` has another shape. */
export const parseTokenSet = (value: unknown): TokenSet | undefined =>
  isRecord(value) && isToken(value.access) && typeof value.access.type === 'string' && isToken(value.refresh)
    ? (value as unknown as TokenSet)
    : undefined;

/** Logged, never thrown (spec §8): the tokens are just not stored. */
export const UNEXPECTED_TOKENS = 'Unexpected token shape; tokens not stored.';

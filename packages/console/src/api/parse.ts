/** Readers for server answers: `unknown` in, checked values out, a clear error when the shape is wrong. */
import { AuthError } from '@edupass/account';
import { ClientCode, isRecord } from '@edupass/protocol';

const wrong = (what: string): never => {
  throw new AuthError(ClientCode.SERVER_ERROR, `Unexpected answer from the server (${what}).`);
};

export const record = (value: unknown, what = 'object'): Record<string, unknown> =>
  isRecord(value) ? value : wrong(what);

export const list = (value: unknown, what = 'list'): unknown[] => (Array.isArray(value) ? value : wrong(what));

export const num = (value: unknown, what = 'number'): number => {
  const n = typeof value === 'string' && value !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : wrong(what);
};

export const numOrNull = (value: unknown, what = 'number'): number | null =>
  value === null || value === undefined ? null : num(value, what);

/** Strings; null and absent read as ''. */
export const str = (value: unknown, what = 'string'): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : wrong(what);

export const strOrNull = (value: unknown, what = 'string'): string | null =>
  value === null || value === undefined ? null : str(value, what);

export const bool = (value: unknown): boolean => value === true || value === 1;

/** A list of objects, each read by `read`. */
export const items = <T>(value: unknown, read: (item: Record<string, unknown>) => T, what = 'object'): T[] =>
  list(value).map((item) => read(record(item, what)));

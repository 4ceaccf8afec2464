/** Reading an error answer of this API (`error_code`, `error_number`, `error_message`): the one way every client does it. */
import { coreCodeName } from './client-codes.ts';

/** A JSON object: not null and not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && !!value && !Array.isArray(value);

export interface ErrorAnswer {
  /**
   * The client code: `error_number` when the core list knows it (client-codes.ts), else `table`'s number
   * for `error_code` (so E_18 … of the education and staff group keep 76 … in an SDK core, which does not
   * carry their names), else the fallback.
   */
  code: number;
  /** `error_code`, when the answer carries one. */
  serverCode: string | undefined;
  /** `error_message`, when the answer carries one. */
  message: string | undefined;
}

/** What an error answer says; undefined when its body is not a JSON object. */
export const readWireError = (
  body: unknown,
  table: Partial<Record<string, number>>,
  fallback: number,
): ErrorAnswer | undefined => {
  if (!isRecord(body)) return undefined;
  const { error_code: code, error_number: number, error_message: message } = body;
  const serverCode = typeof code === 'string' ? code : undefined;
  return {
    code:
      typeof number === 'number' && coreCodeName(number) !== undefined
        ? number
        : (serverCode !== undefined && Object.hasOwn(table, serverCode) && table[serverCode]) || fallback,
    serverCode,
    message: typeof message === 'string' ? message : undefined,
  };
};

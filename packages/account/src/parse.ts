/** Shallow checks of what the server sent, so a wrong shape fails as an AuthError, not later as a TypeError. */

import { isRecord } from '@edupass/protocol';
import { authError } from './errors.ts';

const unexpected = (data: unknown) => authError('SERVER_ERROR', 'Unexpected response shape.', { body: data });

export const expectObject = <T>(data: unknown): T => {
  if (!isRecord(data)) throw unexpected(data);
  return data as T;
};

export const expectArray = <T>(data: unknown): T[] => {
  if (!Array.isArray(data)) throw unexpected(data);
  return data as T[];
};

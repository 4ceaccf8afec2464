import { NOT_INITIALISED_MESSAGE } from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { authError } from './errors.ts';

let current: AccountClient | undefined;

export const setCurrentClient = (client: AccountClient): void => {
  current = client;
};

/** The client of the last `init`. @throws AuthError 'Please run init correctly before getting the auth instance.' */
export const currentClient = (): AccountClient => {
  if (!current) throw authError('INIT_PARAMS_INVALID', NOT_INITIALISED_MESSAGE);
  return current;
};

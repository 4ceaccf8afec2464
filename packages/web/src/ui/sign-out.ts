/** Ends the session on the server; a failure stays a failure unless the session is over anyway. */
import { logout } from '@edupass/account';
import { client } from '../session/account.ts';

export const signOut = async (): Promise<void> => {
  try {
    await logout(client);
  } catch (error) {
    // A session the server already ended is just as signed out.
    if (client.session.get().status !== 'signed-out') throw error;
  }
};

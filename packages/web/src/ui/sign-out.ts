/** Signing out: the session ended on the server, and (the "sign out" buttons) leaving for the sign-in screen. */
import { logout } from '@edupass/account';
import { callRoute } from '@edupass/account/custom-calls';
import { schoolSignInTable } from '@edupass/protocol';
import { navigate } from '../router/history.ts';
import { client } from '../session/account.ts';

/** Ends the session on the server; a failure stays a failure unless the session is over anyway. */
export const signOut = async (): Promise<void> => {
  try {
    await logout(client);
  } catch (error) {
    // A session the server already ended is just as signed out.
    if (client.session.get().status !== 'signed-out') throw error;
  }
};

/** Where to sign out at the school's system too; '' when nowhere, or when it cannot be asked now. */
const schoolSignOutAddress = async (): Promise<string> => {
  try {
    return (await callRoute(client, schoolSignInTable.schoolSignOut)).url;
  } catch {
    return '';
  }
};

/**
 * The "sign out" buttons: ends the session, then the sign-in screen — through the school's system
 * first when the session came from one that signs out there too. The address is asked while the
 * session lasts (it names the session's school sign-in); not getting it never keeps anyone signed in.
 */
export const signOutAndLeave = async (beforeLeaving?: () => void): Promise<void> => {
  const school = await schoolSignOutAddress();
  await signOut();
  beforeLeaving?.();
  if (school) window.location.assign(school);
  else navigate('/?notice=signed-out', { replace: true });
};

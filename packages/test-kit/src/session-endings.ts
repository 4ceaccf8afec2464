/** The ways an account's EduPass sessions end, each as one request: for tests of what must end with them. */
import { A, type Account, type Call, PASSWORD } from './accounts.ts';

export type SessionEnding = [name: string, end: (user: Account) => Promise<{ status: number }>];

/** Every way, by the user or by an operator (`operator`: an operator's token). */
export const sessionEndings = (call: Call, operator: () => string): SessionEnding[] => [
  ['sign-out', (user) => call('POST', `${A}/logout`, {}, { token: user.token })],
  [
    'password change',
    (user) =>
      call(
        'PATCH',
        `${A}/password`,
        { old_password: PASSWORD, password: 'Osprey31415', confirm_password: 'Osprey31415' },
        { token: user.token },
      ),
  ],
  ['block', (user) => call('POST', `/admin/users/${user.userId}/block`, {}, { token: operator() })],
  [
    "operator's end sessions",
    (user) => call('POST', `/admin/users/${user.userId}/sessions/revoke`, {}, { token: operator() }),
  ],
  ['deletion', (user) => call('DELETE', `${A}/account`, undefined, { token: user.token })],
];

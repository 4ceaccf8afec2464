import { A, PASSWORD, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';

/** The file's test server, and a password login against it. */
export const useSignInServer = () => {
  const { server, call } = useTestServer();
  const login = (identity: string, password = PASSWORD, headers: Record<string, string> = {}) =>
    call('POST', `${A}/login`, { identity, password, pid: PID }, { headers });
  return { server, call, login };
};

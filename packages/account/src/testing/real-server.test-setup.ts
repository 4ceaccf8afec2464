/**
 * The real server for the SDK's Node tests, in-process over HTTP (one per test file), and what those
 * tests do on it: SDK clients with a memory token store, a fresh phone account, the code a send
 * delivered, and a call's typed rejection.
 */
import { newCodeFor, nextPhone, PASSWORD } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll } from 'vitest';
import * as sdk from '../index.ts';

export { nextEmail, nextPhone, PASSWORD } from '@edupass/test-kit/accounts';

export interface RealServer {
  /** The running server: read it in tests and hooks, not at load. */
  readonly server: TestServer;
  /** An SDK client of this server (both hosts) with a memory token store; `extra` replaces any setting. */
  newClient(extra?: Partial<sdk.AccountConfig>): sdk.AccountClient;
  /** The code a send just delivered to `to` (some arrive after the answer): a new one, not `previous`. */
  code(to: string, previous?: string): Promise<string>;
  /** Signs up a fresh phone account on `client`: its number and the sign-up's answer. */
  signUpByPhone(
    client: sdk.AccountClient,
    password?: string,
  ): Promise<{ phone: string; result: Awaited<ReturnType<typeof sdk.registerByPhone>> }>;
}

/** Starts the server before the file's tests (with `startTestServer`'s arguments) and closes it after them. */
export const withRealServer = (...start: Parameters<typeof startTestServer>): RealServer => {
  let running: TestServer | undefined;
  beforeAll(async () => {
    running = await startTestServer(...start);
  });
  afterAll(() => running?.close());
  const server = () => {
    if (!running) throw new Error('the server starts before the tests');
    return running;
  };
  return {
    get server() {
      return server();
    },
    newClient: (extra = {}) =>
      sdk.createAccountClient({
        pid: 'edupass',
        appid: 'wx-dev',
        product_code: 'edupass',
        platform: 'web',
        auth_version: 2,
        host: { tiger: server().url, platform: server().url },
        storage: sdk.memoryTokenStore(),
        ...extra,
      }),
    code: (to, previous) => newCodeFor(server(), to, previous),
    signUpByPhone: async (client, password = PASSWORD) => {
      const phone = nextPhone();
      await sdk.sendRegisterCode(client, { phone_number: phone });
      const captcha = await newCodeFor(server(), phone);
      return { phone, result: await sdk.registerByPhone(client, { phone_number: phone, captcha, password }) };
    },
  };
};

/** The `AuthError` a call rejects with; a call that resolves, or rejects with anything else, fails the test. */
export const rejection = (promise: Promise<unknown>): Promise<sdk.AuthError> =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => {
      if (!sdk.isAuthError(error)) throw error;
      return error;
    },
  );

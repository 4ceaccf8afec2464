import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientCode, SDK_ACCOUNT_VERSION } from '@edupass/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountConfig,
  type AuthError,
  createAccountClient,
  getGradeList,
  isAuthError,
  loginByPassword,
} from './index.ts';
import { type FakeApi, startFakeApi } from './testing/fake-api.ts';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());

const base = (extra: Partial<AccountConfig> = {}) =>
  createAccountClient({
    pid: 'edupass',
    appid: 1001,
    product_code: 77,
    platform: 'web',
    host: { tiger: api.url, platform: api.url },
    ...extra,
  });

const rejection = async (promise: Promise<unknown>): Promise<AuthError> => {
  try {
    await promise;
  } catch (error) {
    if (isAuthError(error)) return error;
    throw error;
  }
  throw new Error('resolved');
};

const GRADES = 'GET /tiger/v3/web/accounts/grade-list';

describe('transport', () => {
  it('sends the standard headers and JSON content type on every call', async () => {
    api.on(GRADES, () => ({ status: 200, body: [] }));
    await getGradeList(base({ auth_version: 2, client_id: 'site-1' }));
    const { headers, method, body } = api.requests.at(-1)!;
    expect(method).toBe('GET');
    expect(body).toBeUndefined();
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'product-code': '77',
      pid: 'edupass',
      platform: 'web',
      'auth-version': '2',
      'client-id': 'site-1',
      'sdk-account-version': SDK_ACCOUNT_VERSION,
    });
    expect(SDK_ACCOUNT_VERSION).toBe('0.16.2');
  });

  it('leaves out Auth-Version, Client-ID and Net when unset or unknown', async () => {
    await getGradeList(base());
    const { headers } = api.requests.at(-1)!;
    expect(headers['auth-version']).toBeUndefined();
    expect(headers['client-id']).toBeUndefined();
    expect(headers.net).toBeUndefined();
  });

  it('sends the JSON body with pid and the default agreement_ids', async () => {
    api.on('POST /tiger/v3/web/accounts/login', () => ({
      status: 200,
      body: { user_info: { id: 1 }, auth: { token: 'plain' } },
    }));
    await loginByPassword(base(), { identity: 'ada', password: 'secret1' });
    expect(api.requests.at(-1)!.body).toEqual({
      identity: 'ada',
      password: 'secret1',
      pid: 'edupass',
      agreement_ids: [-1],
    });
  });

  it('turns the wire error shape into an AuthError with the server details', async () => {
    const wire = {
      error_code: 'AC3_2',
      error_message: 'User does not exist or the password is wrong.',
      error_number: 16,
      error_category: 'account',
      log_uuid: 'l-1',
    };
    api.on('POST /tiger/v3/web/accounts/login', () => ({ status: 403, body: wire }));
    const error = await rejection(loginByPassword(base(), { identity: 'ada', password: 'wrong1' }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: ClientCode.USER_NOT_EXIST_OR_WRONG_PASSWORD,
      name: 'USER_NOT_EXIST_OR_WRONG_PASSWORD',
      message: wire.error_message,
      serverCode: 'AC3_2',
      status: 403,
      body: wire,
    });
  });

  it('maps error_code by the catalogue when error_number is missing or unknown', async () => {
    for (const extra of [{}, { error_number: 9999 }, { error_number: '14' }]) {
      const wire = { error_code: 'AC3_0', error_message: 'The phone number is already registered.', ...extra };
      api.on(GRADES, () => ({ status: 400, body: wire }));
      const error = await rejection(getGradeList(base()));
      expect(error).toMatchObject({
        code: ClientCode.PHONE_REGISTERED,
        name: 'PHONE_REGISTERED',
        serverCode: 'AC3_0',
        status: 400,
        body: wire,
      });
    }
  });

  it('trusts a known error_number over its own mapping (the server may say more precisely)', async () => {
    const wire = { error_code: 'E_1', error_message: 'Invalid phone_number', error_number: ClientCode.INVALID_PHONE };
    api.on(GRADES, () => ({ status: 400, body: wire }));
    expect(await rejection(getGradeList(base()))).toMatchObject({ code: ClientCode.INVALID_PHONE, serverCode: 'E_1' });
  });

  it('passes an unknown server code through with its raw body', async () => {
    const wire = { error_code: 'XYZ_9', error_message: 'Something new.', error_category: 'new', log_uuid: 'l-2' };
    api.on(GRADES, () => ({ status: 418, body: wire }));
    const error = await rejection(getGradeList(base()));
    expect(error).toMatchObject({ code: ClientCode.SERVER_ERROR, serverCode: 'XYZ_9', status: 418, body: wire });
    expect(error.message).toBe('Something new.');
  });

  it('keeps a non-JSON failure body as text', async () => {
    api.on(GRADES, () => ({ status: 502, raw: '<html>bad gateway</html>' }));
    const error = await rejection(getGradeList(base()));
    expect(error).toMatchObject({ code: ClientCode.SERVER_ERROR, status: 502, body: '<html>bad gateway</html>' });
    expect(error.serverCode).toBeUndefined();
  });

  it('rejects an answer of the wrong shape', async () => {
    api.on(GRADES, () => ({ status: 200, body: { not: 'a list' } }));
    expect(await rejection(getGradeList(base()))).toMatchObject({ code: ClientCode.SERVER_ERROR });
  });
});

describe('timeouts and network failures', () => {
  let stalled: ReturnType<typeof createServer>;
  let stalledUrl: string;
  beforeAll(async () => {
    // Accepts the request and never answers.
    stalled = createServer(() => {});
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    stalled.closeAllConnections();
    stalled.close();
  });

  it('fails with code 12 and the ECONNABORTED message after requestTimeout', async () => {
    const client = base({ host: { tiger: stalledUrl }, requestTimeout: 150 });
    const started = Date.now();
    const error = await rejection(getGradeList(client));
    expect(error).toMatchObject({
      code: 12,
      name: 'REQUEST_TIMEOUT',
      message: 'ECONNABORTED:timeout of 150 ms exceeded',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('times out a server that stalls in the middle of the body', async () => {
    api.on(GRADES, () => 'stall');
    const error = await rejection(getGradeList(base({ requestTimeout: 150 })));
    expect(error.code).toBe(ClientCode.REQUEST_TIMEOUT);
  });

  it('fails with code 13 "Network error." when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejection(getGradeList(base({ host: { tiger: url } })));
    expect(error).toMatchObject({ code: 13, name: 'REQUEST_ERROR', message: 'Network error.' });
    expect(error.cause).toBeDefined();
  });
});

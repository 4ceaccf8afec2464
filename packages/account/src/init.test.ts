import { CLIENT_MESSAGES, ClientCode } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { getAuth, init } from './auth.ts';
import { type AccountConfig, createAccountClient, isAuthError } from './index.ts';

const valid: AccountConfig = { pid: 'edupass', appid: 'wx-app', product_code: 'edupass', platform: 'web' };

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
};

describe('init and getAuth', () => {
  // First in the file: the module-level instance is still empty.
  it('getAuth before init says to run init correctly', () => {
    const error = failure(getAuth);
    expect(isAuthError(error)).toBe(true);
    expect(error).toMatchObject({ message: CLIENT_MESSAGES.notInitialised, code: ClientCode.INIT_PARAMS_INVALID });
    expect(CLIENT_MESSAGES.notInitialised).toBe('Please run init correctly before getting the auth instance.');
  });

  it.each(['pid', 'appid', 'product_code', 'platform'] as const)(
    'init without %s fails with the init message',
    (key) => {
      const config: Partial<AccountConfig> = { ...valid };
      delete config[key];
      const error = failure(() => init(config as AccountConfig));
      expect(error).toMatchObject({
        code: -1,
        name: 'INIT_PARAMS_INVALID',
        message: 'Auth init fail.Check init params.',
      });
    },
  );

  it('pid must be a string; appid and product_code may be numbers', () => {
    expect(failure(() => init({ ...valid, pid: 42 as unknown as string }))).toMatchObject({ code: -1 });
    expect(() => init({ ...valid, appid: 1001, product_code: 7 })).not.toThrow();
    expect(failure(() => init({ ...valid, appid: '' }))).toMatchObject({ code: -1 });
  });

  it('rejects an unknown env and a non-positive timeout', () => {
    expect(failure(() => createAccountClient({ ...valid, env: 'qa' as 'dev' }))).toMatchObject({ code: -1 });
    expect(failure(() => createAccountClient({ ...valid, requestTimeout: 0 }))).toMatchObject({ code: -1 });
  });

  it('getAuth returns the calls bound to the client of the last init', () => {
    const first = init(valid);
    expect(getAuth()).toBe(first);
    const second = init({ ...valid, pid: 'other' });
    expect(getAuth()).toBe(second);
    expect(getAuth().client.config.pid).toBe('other');
    expect(typeof getAuth().loginByPassword).toBe('function');
    expect(getAuth().getSession()).toEqual({ status: 'unknown', user: null });
  });

  it('fills defaults: prod, 20000 ms, memory tokens in Node, no tab channel', () => {
    const client = createAccountClient(valid);
    expect(client.config.env).toBe('prod');
    expect(client.config.requestTimeout).toBe(20_000);
    expect(client.config.crossTab).toBe(false);
    expect(client.tokens.get()).toEqual({});
  });
});

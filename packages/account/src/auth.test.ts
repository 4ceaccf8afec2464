import { describe, expect, it } from 'vitest';
import { bindAuth } from './auth.ts';
import * as calls from './calls/index.ts';
import { createAccountClient } from './client.ts';

describe('the convenience object', () => {
  it('binds every call of calls/, and nothing else besides the session helpers', () => {
    const auth = bindAuth(createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' }));
    const callNames = Object.entries(calls)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(Object.keys(auth).sort()).toEqual([...callNames, 'client', 'getSession', 'onChange'].sort());
  });

  it('is one object per client', () => {
    const client = createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' });
    expect(bindAuth(client)).toBe(bindAuth(client));
  });
});

/**
 * A session has an absolute age (SESSION_MAX_AGE): refreshing keeps it going only until then, after
 * which a refresh is 10000001 and the user signs in again.
 */
import type { TokenSet } from '@edupass/protocol';
import { A, expectError, expectTokenSet, nextPhone, signUp, T } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';

const HOUR = 3600;
let offsetMs = 0;
const { server, call } = useTestServer(
  { sessionMaxAgeSeconds: 10 * HOUR, refreshTokenTtlSeconds: 30 * 24 * HOUR, accessTokenTtlSeconds: HOUR },
  { now: () => Date.now() + offsetMs },
);

const refresh = (token: string) => call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: token });

describe('absolute session age', () => {
  it('is 60 days unless SESSION_MAX_AGE says otherwise', () => {
    expect(loadConfig({}).sessionMaxAgeSeconds).toBe(60 * 86_400);
    expect(loadConfig({ SESSION_MAX_AGE: '7200' }).sessionMaxAgeSeconds).toBe(7200);
  });

  it('refreshes keep a session alive until its age; past it the refresh is 10000001 and the session ends', async () => {
    offsetMs = 0;
    const account = await signUp(server, nextPhone());
    let refreshToken = account.refresh;
    // Nine hours of hourly refreshes, each well within the refresh token's own lifetime.
    for (let hour = 1; hour <= 9; hour++) {
      offsetMs = hour * HOUR * 1000;
      const answer = await refresh(refreshToken);
      expect(answer.status, `hour ${hour}: ${JSON.stringify(answer.body)}`).toBe(200);
      refreshToken = expectTokenSet(answer.body).refresh.token;
    }
    const lastAccess = (await refresh(refreshToken)).body;
    refreshToken = lastAccess.refresh.token;
    offsetMs = 10 * HOUR * 1000 + 1000;
    expectError(await refresh(refreshToken), '10000001');
    // The session itself ended: its last access token (not yet expired) no longer works.
    offsetMs = 9 * HOUR * 1000;
    expectError(await call('GET', `${A}/profile`, undefined, { token: lastAccess.access.token }), 'E_0');
    offsetMs = 0;
  });
});

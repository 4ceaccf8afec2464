/**
 * `@edupass/account/busy` against the real server, in-process over HTTP: while the server's queue of
 * password checks is full (a flood of hashes queued in this process, as a crowd's sign-ins would be),
 * a password sign-in is answered 503 `SERVICE_UNAVAILABLE` with `retry_after`; `retryWhileBusy` waits,
 * says it is waiting, asks again one try at a time, and signs in once the queue drains.
 */

import { floodPasswordChecks } from '@edupass/test-kit/password-flood';
import { describe, expect, it } from 'vitest';
import { busySeconds, retryWhileBusy } from './busy.ts';
import { authError, isAuthError } from './errors.ts';
import * as sdk from './index.ts';
import { PASSWORD, withRealServer } from './testing/real-server.test-setup.ts';

const real = withRealServer();

describe('retryWhileBusy', () => {
  it('a sign-in the server is too busy to check is asked again by itself, never twice at once, and signs in', async () => {
    const { phone } = await real.signUpByPhone(real.newClient());
    // Every login request the SDK sends, with how many were in flight when it left.
    const sent: { status?: number; inFlight: number }[] = [];
    let inFlight = 0;
    const countingFetch: typeof fetch = async (url, init) => {
      if (!String(url).endsWith('/login')) return fetch(url, init);
      const record: { status?: number; inFlight: number } = { inFlight: ++inFlight };
      sent.push(record);
      try {
        const response = await fetch(url, init);
        record.status = response.status;
        return response;
      } finally {
        inFlight--;
      }
    };
    const client = real.newClient({ fetch: countingFetch });

    // A flood: every core busy with a slow hash and a full queue behind it.
    const flood = floodPasswordChecks();

    const waiting: boolean[] = [];
    const waits: number[] = [];
    const signedIn = retryWhileBusy(
      () => sdk.loginByPassword(client, { identity: phone, password: PASSWORD }),
      (now) => waiting.push(now),
      {
        // The next try once the flood has drained: the wait the server asked for is recorded.
        sleep: async (ms) => {
          waits.push(ms);
          await flood.drained;
        },
      },
    );
    const result = await signedIn;

    expect(result.user_info).toMatchObject({ id: expect.any(Number) });
    expect(sent.map((s) => s.status)).toEqual([503, 200]);
    expect(sent.every((s) => s.inFlight === 1)).toBe(true);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waiting).toEqual([true, false]);
  }, 120_000);

  it('any other error is thrown at once, and the last busy answer after the tries', async () => {
    const client = real.newClient();
    const wrong = retryWhileBusy(() => sdk.loginByPassword(client, { identity: '13800000000', password: 'wrong-one' }));
    await expect(wrong).rejects.toSatisfy((error) => isAuthError(error) && error.name !== 'SERVICE_UNAVAILABLE');

    let tries = 0;
    const busy = authError('SERVICE_UNAVAILABLE', 'busy', { status: 503, body: { retry_after: 3 } });
    expect(busySeconds(busy)).toBe(3);
    const always = retryWhileBusy(
      async () => {
        tries++;
        throw busy;
      },
      undefined,
      { tries: 3, sleep: async () => {} },
    );
    await expect(always).rejects.toBe(busy);
    expect(tries).toBe(3);
  });
});

import { FINGERPRINT_TIMEOUT_MS } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { fingerprintDeviceId, memoizeDeviceId } from './device-id.ts';
import type { Page } from './globals.ts';
import { createManualClock } from './testing-clock.ts';

describe('the device id', () => {
  it('is the FingerprintJS visitor id, computed after the 500 ms fallback wait when there is no idle callback', async () => {
    const clock = createManualClock();
    let started = false;
    const id = fingerprintDeviceId({
      timers: clock.timers,
      page: undefined,
      load: async () => {
        started = true;
        return { get: async () => ({ visitorId: 'abc123' }) };
      },
    });
    await clock.advance(FINGERPRINT_TIMEOUT_MS - 1);
    expect(started).toBe(false);
    await clock.advance(1);
    await expect(id).resolves.toBe('abc123');
  });

  it('starts in requestIdleCallback with the 500 ms time-out when the browser has one', async () => {
    const clock = createManualClock();
    const seen: unknown[] = [];
    const page = {
      window: {
        requestIdleCallback: (cb: () => void, options: unknown) => {
          seen.push(options);
          cb();
        },
      },
      document: {},
    } as unknown as Page;
    const id = fingerprintDeviceId({
      timers: clock.timers,
      page,
      load: async () => ({ get: async () => ({ visitorId: 'v' }) }),
    });
    await expect(id).resolves.toBe('v');
    expect(seen).toEqual([{ timeout: FINGERPRINT_TIMEOUT_MS }]);
  });

  it("is '' when the fingerprint fails", async () => {
    const clock = createManualClock();
    const id = fingerprintDeviceId({
      timers: clock.timers,
      page: undefined,
      load: async () => {
        throw new Error('blocked by an extension');
      },
    });
    await clock.advance(FINGERPRINT_TIMEOUT_MS);
    await expect(id).resolves.toBe('');
  });

  it("is '' when the fingerprint never answers", async () => {
    const clock = createManualClock();
    const id = fingerprintDeviceId({
      timers: clock.timers,
      page: undefined,
      deadlineMs: 2_000,
      load: () => new Promise(() => {}),
    });
    await clock.advance(2_000);
    await expect(id).resolves.toBe('');
  });

  it('is computed once per page, but tried again after a failure', async () => {
    const answers = ['', 'id-1', 'id-2'];
    let calls = 0;
    const get = memoizeDeviceId(async () => {
      calls++;
      return answers.shift() ?? '';
    });
    expect(await get()).toBe('');
    expect(await get()).toBe('id-1');
    expect(await get()).toBe('id-1');
    expect(calls).toBe(2);
  });
});

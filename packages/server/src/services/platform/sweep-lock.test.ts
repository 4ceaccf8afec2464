/** One sweeper at a time: while another process holds the sweep, this one skips its round. */

import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/db.ts';
import { withSweepLock } from '../../store/sweep-lock.ts';
import { sweepOnce } from './housekeeping.ts';

const { server } = useTestServer();

describe('the sweep lock', () => {
  it('a process skips the sweep while another holds it, and sweeps once it is let go', async () => {
    // Another process: its own store and connections on the same database.
    const other = openStore(server.config.databaseUrl);
    try {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let taken: () => void = () => {};
      const isTaken = new Promise<void>((resolve) => {
        taken = resolve;
      });
      // The server's own first sweep may still hold it: the other process waits its turn.
      const holding = (async () => {
        for (;;) {
          const result = await withSweepLock(other, Date.now(), async () => {
            taken();
            await held;
            return 'swept by the other';
          });
          if (result !== undefined) return result;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await isTaken;
      expect(await sweepOnce(server.app.ctx)).toBe(false);
      release();
      expect(await holding).toBe('swept by the other');
      expect(await sweepOnce(server.app.ctx)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

/**
 * Moves a test server's clock (`ctx.now`) forward for the rest of a test: expiry tests move the clock,
 * they never sleep. Registers its own `afterEach` that puts the real clock back.
 */
import { afterEach } from 'vitest';
import type { TestServer } from './harness.ts';

export const movableClock = (server: TestServer) => {
  let realNow: (() => number) | undefined;
  afterEach(() => {
    if (realNow) server.app.ctx.now = realNow;
    realNow = undefined;
  });
  /** The server's clock reads `ms` later than the real one until the test ends. */
  return (ms: number) => {
    const ctx = server.app.ctx;
    realNow ??= ctx.now;
    const base = realNow;
    ctx.now = () => base() + ms;
  };
};

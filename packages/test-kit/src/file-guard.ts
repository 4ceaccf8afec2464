/**
 * Setup file of the server projects, whose test files run one after another in one module graph per
 * worker (`isolate: false`: the server is imported once, not once per file). What a file changes in
 * the process is put back when the file ends: the environment, fake clocks, spies and stubs. Module
 * state of the server itself is per app (caches, metrics, keys live on the Context), so one app
 * never sees another's.
 */
import { afterAll, vi } from 'vitest';

const environment = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

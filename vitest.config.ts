import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITION } from './scripts/source-condition.mjs';

const serverTests = ['packages/server/src/**/*.test.ts'];
/** The usage suites that run once more with the events in ClickHouse (scripts/test.mjs starts one). */
const usageTests = [
  'packages/server/src/services/usage/usage.test.ts',
  'packages/server/src/services/usage/clickhouse-outage.test.ts',
  'packages/server/src/store/usage/events-store.test.ts',
  'packages/server/src/store/usage/clickhouse-rollups.test.ts',
  'packages/server/src/store/usage/clickhouse-breakdowns.test.ts',
];

/** The EduPass packages resolve to their TypeScript sources, in browser-like and Node tests alike. */
const sources = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
};

/**
 * Generous waits, for a loaded two-core machine: a test, a hook, and `expect.poll` (whose own default,
 * one second, is a race lost under load; a poll gives up after 15 s unless it says otherwise).
 */
const waits = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  expect: { poll: { timeout: 15_000, interval: 100 } },
};

export default defineConfig({
  test: {
    ...waits,
    projects: [
      {
        ...sources,
        test: {
          name: 'sdk',
          include: [
            'packages/{protocol,account,captcha,tracker,monitor,node}/src/**/*.test.ts',
            'packages/{web,console}/{src,e2e}/**/*.test.ts',
            'packages/ui-kit/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          env: { EDUPASS_TEST_DB: 'sqlite' },
          ...waits,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-sqlite',
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'sqlite' },
          ...waits,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-postgres',
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'postgres' },
          ...waits,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-clickhouse',
          include: usageTests,
          env: { EDUPASS_TEST_DB: 'sqlite', EDUPASS_TEST_EVENTS: 'clickhouse' },
          globalSetup: ['packages/test-kit/src/clickhouse-global-setup.ts'],
          ...waits,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

const serverTests = ['packages/server/src/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'sdk',
          include: [
            'packages/{protocol,account,captcha,tracker,monitor}/src/**/*.test.ts',
            'packages/web/{src,e2e}/**/*.test.ts',
          ],
          env: { EDUPASS_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

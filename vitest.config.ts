import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITION } from './scripts/source-condition.mjs';

const serverTests = ['packages/server/src/**/*.test.ts'];

/** The EduPass packages resolve to their TypeScript sources, in browser-like and Node tests alike. */
const sources = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
};

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        ...sources,
        test: {
          name: 'sdk',
          include: [
            'packages/{protocol,account,captcha,tracker,monitor,node}/src/**/*.test.ts',
            'packages/web/{src,e2e}/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          env: { EDUPASS_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-sqlite',
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...sources,
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

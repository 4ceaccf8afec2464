import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITION } from './scripts/source-condition.mjs';
import { LongestFirst } from './scripts/test-order.ts';

const serverTests = ['packages/server/src/**/*.test.ts'];

/**
 * The database-sensitive server files: they run on PostgreSQL as well as on SQLite; every other
 * server file runs on SQLite only. A file belongs here when what it checks could come out
 * differently on the two databases:
 * - it drives SQL that either dialect writes or answers differently (everything under store/, the
 *   usage ingestion and roll-ups, the console's dashboard queries), or it runs migrations;
 * - it holds parallel requests or several processes to one answer (concurrency, lockout, races on
 *   single-use codes and tokens, leases between processes): SQLite serialises every write, so only
 *   PostgreSQL shows whether the defence is atomic;
 * - it feeds hostile input to SQL (fuzz), or names the dialect itself (`testDatabaseKind()`,
 *   `describe.runIf(... === 'postgres')`).
 * A new test file is SQLite-only until it is listed here.
 */
const postgresTests = [
  'packages/server/src/store/**/*.test.ts',
  'packages/server/src/cli.test.ts',
  'packages/server/src/cli-backup.test.ts',
  'packages/server/src/cluster.test.ts',
  'packages/server/src/oidc/{backchannel-logout,claims-by-consent,discloses-to-others,held-writes,identity-guards,interaction-binding,replay,secret-guesses,session-end,sign-in-completes,statements-per-sign-in}.test.ts',
  'packages/server/src/security/{captcha-enforcement-policies,email-spellings,enumeration,fuzz,fuzz-oidc,ingestion-overload}.test.ts',
  'packages/server/src/security/{code-guess-race,factors,lockout-answer,lockout-race,second-factor,secrets}.test.ts',
  'packages/server/src/services/account/{avatar,data-export,deletion-grace,record-reads,retention-statement}.test.ts',
  'packages/server/src/services/edu/roster/{address-books,roster-import}.test.ts',
  'packages/server/src/services/edu/access-log.test.ts',
  'packages/server/src/services/edu/school/{badges,class-grades,credentials,foreign-teacher,join-codes,join-requests,pupils,quotas,school-pages,teacher-way-in}.test.ts',
  'packages/server/src/services/edu/school/{archived-class,merge-pupils,pupil-cards}.test.ts',
  'packages/server/src/services/edu/family/{adult-check,consent,guardian-links,guardian-requests,minor-mode,school-agreements,school-invites,guardians-to-confirm}.test.ts',
  'packages/server/src/services/edu/federation/{cas,oidc,saml,workapp}/sign-in.test.ts',
  'packages/server/src/services/edu/federation/cas/django-cas.test.ts',
  'packages/server/src/services/edu/federation/oidc/smartedu.test.ts',
  'packages/server/src/services/admin/{admin,audit-chain,audit-export,operator-duties,rights-report,staff-access,yearly-report}.test.ts',
  'packages/server/src/services/passwords/staff-passwords.test.ts',
  'packages/server/src/services/platform/{housekeeping,housekeeping-retention,metrics,read-replica,readiness}.test.ts',
  'packages/server/src/services/security/{concurrency,record-keys,sealed-records}.test.ts',
  'packages/server/src/services/sessions/{cache,devices,idle,tokens}.test.ts',
  'packages/server/src/services/sign-in/sign-up.test.ts',
  'packages/server/src/services/usage/{usage,usage-rollups}.test.ts',
  'packages/server/src/services/webhooks/{processes,webhooks}.test.ts',
];
/** The usage suites that run once more with the events in ClickHouse (scripts/test.mjs starts one). */
const usageTests = [
  'packages/server/src/services/usage/usage.test.ts',
  'packages/server/src/services/usage/clickhouse-outage.test.ts',
  'packages/server/src/store/usage/events-store.test.ts',
  'packages/server/src/store/usage/clickhouse-rollups.test.ts',
  'packages/server/src/store/usage/clickhouse-breakdowns.test.ts',
  // Erasure takes the user's events from whichever store holds them.
  'packages/server/src/services/account/deletion-grace.test.ts',
  // A person's copy of their data reads the user's events from whichever store holds them.
  'packages/server/src/services/account/data-export.test.ts',
];

/** The EduPass packages resolve to their TypeScript sources, in browser-like and Node tests alike. */
const sources = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
};

/**
 * Generous waits, for a loaded two-core machine: a test, a hook, and `expect.poll` (whose own default,
 * one second, is a race lost under load; a poll gives up after 15 s, within a test's 30 s, so that it
 * fails with its own message).
 */
const waits = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  expect: { poll: { timeout: 15_000, interval: 100 } },
};

/**
 * The server and browser projects import the server once per worker rather than once per file (about
 * a third of the server files' time): no module of the server holds state of an app (it lives on the
 * Context), and file-guard.ts puts back what a file changes in the process (environment, clocks, spies).
 */
const sharedModules = { isolate: false, setupFiles: ['packages/test-kit/src/file-guard.ts'] };

export default defineConfig({
  test: {
    ...waits,
    // Four files at a time on the two cores of the CI machine (Vitest's default there is one): the
    // browser stories spend part of their time waiting on a page, a held-back answer or a server's
    // clock, and the other files fill those waits (for the browser files, two left the cores about
    // 40 % idle and three about 10 %). Whole clean-clone CI runs on an Intel host (2026-11-30): Vitest
    // took 687 s with three, 660 and 673 s with four, every file's own time about a quarter longer; an
    // earlier host measured no gain from the fourth.
    maxWorkers: 4,
    // One Chromium and one build of the web client and console for the whole run, whichever projects
    // it runs (test-kit browser-global-setup.ts): the root config's global setup runs once, and every
    // project inherits what it provides.
    globalSetup: ['packages/test-kit/src/browser-global-setup.ts'],
    // The longest files first, by the last run's durations (scripts/test-order.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        ...sources,
        test: {
          name: 'sdk',
          include: [
            'packages/{protocol,account,captcha,tracker,monitor,node}/src/**/*.test.ts',
            'packages/{web,console}/src/**/*.test.ts',
            'packages/ui-kit/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          env: { EDUPASS_TEST_DB: 'sqlite' },
          ...waits,
          // The browser tests of the SDKs and the packaging checks: as long as those below.
          testTimeout: 120_000,
        },
      },
      {
        ...sources,
        test: {
          // The web client's and the console's stories in Chromium. Each file starts the server in
          // its own worker (test-kit harness), so like the server projects they share one import of
          // it per worker; no file mocks a module.
          name: 'browser',
          ...sharedModules,
          include: ['packages/{web,console}/e2e/**/*.test.ts'],
          env: { EDUPASS_TEST_DB: 'sqlite' },
          ...waits,
          // A browser test is several screens, each given up to 60 s to appear on a loaded machine
          // (e2e/support/pages.ts `STEP_TIMEOUT_MS`): the test's own budget must hold more than one of them.
          testTimeout: 120_000,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-sqlite',
          ...sharedModules,
          include: serverTests,
          env: { EDUPASS_TEST_DB: 'sqlite' },
          ...waits,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-postgres',
          ...sharedModules,
          include: postgresTests,
          env: { EDUPASS_TEST_DB: 'postgres' },
          ...waits,
        },
      },
      {
        ...sources,
        test: {
          name: 'server-clickhouse',
          ...sharedModules,
          include: usageTests,
          env: { EDUPASS_TEST_DB: 'sqlite', EDUPASS_TEST_EVENTS: 'clickhouse' },
          globalSetup: ['packages/test-kit/src/clickhouse-global-setup.ts'],
          ...waits,
        },
      },
    ],
  },
});

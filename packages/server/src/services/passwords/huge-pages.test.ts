/**
 * A host that keeps transparent huge pages from the password hash makes every check cost several
 * times the CPU (huge-pages.ts): the server says so at start, naming the cause and the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase } from '@edupass/test-kit/databases';
import { describe, expect, it } from 'vitest';
import { HUGE_PAGES_SETTING, hugePagesMode, hugePagesWarning, PROCESS_STATUS } from './huge-pages.ts';

/** The files as Linux writes them: the setting's three choices, the one in use bracketed. */
const host =
  (setting: string | undefined, processEnabled: 0 | 1 | undefined) =>
  (path: string): string | undefined => {
    if (path === HUGE_PAGES_SETTING) return setting;
    if (path === PROCESS_STATUS && processEnabled !== undefined)
      return `Name:\tnode\nUmask:\t0022\nState:\tR (running)\nTHP_enabled:\t${processEnabled}\nThreads:\t11\n`;
    return undefined;
  };

/**
 * Runs what follows it (Node's command line) with transparent huge pages off for the process, as a
 * process manager can leave them: prctl(PR_SET_THP_DISABLE, 1), kept across exec.
 */
const WITHOUT_HUGE_PAGES = [
  '/usr/bin/python3',
  '-c',
  'import ctypes, os, sys\nctypes.CDLL(None).prctl(41, 1, 0, 0, 0)\nos.execv(sys.argv[1], sys.argv[1:])',
];

describe('transparent huge pages and the password hash', () => {
  it('reads the setting and the process status as Linux writes them', () => {
    expect(hugePagesMode('always [madvise] never\n')).toBe('madvise');
    expect(hugePagesMode('[always] madvise never\n')).toBe('always');
    expect(hugePagesMode(undefined)).toBeUndefined();

    expect(hugePagesWarning(host('always [madvise] never\n', 1))).toBeUndefined();
    expect(hugePagesWarning(host('[always] madvise never\n', 1))).toBeUndefined();
    // Not Linux, or a sandbox without /sys and /proc: nothing to say.
    expect(hugePagesWarning(host(undefined, undefined))).toBeUndefined();

    const offOnHost = hugePagesWarning(host('always madvise [never]\n', 1));
    expect(offOnHost).toContain(
      'Password checks will cost several times the CPU (measured on a virtual machine: 75 ms a check instead of 13)',
    );
    expect(offOnHost).toContain(`${HUGE_PAGES_SETTING}: never`);
    expect(offOnHost).toContain(`echo madvise > ${HUGE_PAGES_SETTING}`);

    const offForProcess = hugePagesWarning(host('always [madvise] never\n', 0));
    expect(offForProcess).toContain('off for this process (PR_SET_THP_DISABLE');
    expect(offForProcess).toContain('start the server without PR_SET_THP_DISABLE');
  });

  it("answers this machine's own setting", () => {
    // A container may have no /sys: then there is nothing to say.
    const there = existsSync(HUGE_PAGES_SETTING);
    const mode = there ? hugePagesMode(readFileSync(HUGE_PAGES_SETTING, 'utf8')) : undefined;
    if (there) expect(mode).toMatch(/^(always|madvise|never)$/);
    if (mode === 'never') expect(hugePagesWarning()).toContain('off on this host');
    else expect(hugePagesWarning()).toBeUndefined();
  });

  it('the server started with huge pages off for its process warns at start, with the fix', {
    timeout: 180_000,
  }, async () => {
    const bundle = await bundleServer();
    const database = await createTestDatabase();
    const log = join(dirname(bundle.file), 'start.log');
    const server = await startChildServer(
      bundle.file,
      { DATABASE_URL: database.url },
      undefined,
      [],
      log,
      WITHOUT_HUGE_PAGES,
    );
    try {
      await expect
        .poll(() => readFileSync(log, 'utf8'), { timeout: 30_000 })
        .toContain('transparent huge pages are off for this process');
      const warning = readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('Password checks will cost'))
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(warning).toHaveLength(1);
      // pino's warn
      expect(warning[0]?.level).toBe(40);
      expect(warning[0]?.msg).toContain('start the server without PR_SET_THP_DISABLE');
    } finally {
      await server.kill();
      bundle.remove();
      await database.drop();
    }
  });
});

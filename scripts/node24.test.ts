/**
 * scripts/node24.sh keeps one better-sqlite3 build for Node 24 in a cache that `.ci/run` and
 * `npm run bench:server` copy into node_modules. A build for another Node (a compile that took the
 * machine's Node 20 headers) must never be cached nor used from there: Node 24 refuses to load it.
 * Nothing is compiled or downloaded here; the wrong build is the machine's own.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const NODE24_MODULES = '137';

const node24 = (args: string[], env: Record<string, string> = {}) => {
  const run = spawnSync('bash', [join(root, 'scripts/node24.sh'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
};

/** The build the running Node loads (the suite opens SQLite with it), so built for this Node. */
const loadedBuild = join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
/** Where `node24.sh run` keeps the machine's build while the suite runs on Node 24 (.ci/run). */
const keptMachineBuild = join(root, '.tmp/better_sqlite3.machine.node');

/** The machine's better-sqlite3 build for its own Node (20 on the project's machines), not Node 24. */
const machineBuild = () => {
  const found = [loadedBuild, keptMachineBuild].find(
    (file) => existsSync(file) && node24(['check-addon', file]).stderr.includes('NODE_MODULE_VERSION'),
  );
  if (found === undefined) throw new Error('no better-sqlite3 build for a Node other than 24 on this machine');
  return found;
};

const scratch = mkdtempSync(join(tmpdir(), 'edupass-node24-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('scripts/node24.sh and the module version of an addon', () => {
  it('reads the version of the build this Node loads as this Node’s own', () => {
    const { status, stdout, stderr } = node24(['check-addon', loadedBuild]);
    if (process.versions.modules === NODE24_MODULES) {
      expect([status, stdout.trim()]).toEqual([0, `${loadedBuild}: NODE_MODULE_VERSION 137 (Node 24)`]);
    } else {
      expect(status).toBe(1);
      expect(stderr).toContain(`is built for NODE_MODULE_VERSION ${process.versions.modules}, not Node 24's 137`);
    }
  });

  it('refuses the machine’s Node 20 build as a Node 24 addon (what it would have cached)', () => {
    const build = machineBuild();
    const { status, stderr } = node24(['check-addon', build]);
    expect(status).toBe(1);
    expect(stderr).toMatch(/is built for NODE_MODULE_VERSION (?!137)\d+, not Node 24's 137/);
  });

  it('refuses a file that names no module version', () => {
    const { status, stderr } = node24(['check-addon', join(root, 'package.json')]);
    expect(status).toBe(1);
    expect(stderr).toContain('NODE_MODULE_VERSION unknown');
  });

  it('removes a cached build for another Node instead of using it, and says so', () => {
    const cacheHome = join(scratch, 'cache');
    const empty = node24(['cached-addon'], { XDG_CACHE_HOME: cacheHome });
    expect(empty.status).toBe(1);
    const cached = /no Node 24 build of better-sqlite3 at (\S+)/.exec(empty.stderr)?.[1];
    expect(cached).toMatch(new RegExp(`^${cacheHome}/edupass-ci/better-sqlite3-.+-node-24-headers-.+\\.node$`));
    mkdirSync(dirname(cached as string), { recursive: true });
    copyFileSync(machineBuild(), cached as string);

    const poisoned = node24(['cached-addon'], { XDG_CACHE_HOME: cacheHome });
    expect(poisoned.status).toBe(1);
    expect(poisoned.stdout).toBe('');
    expect(poisoned.stderr).toContain(`removing ${cached} from the cache`);
    expect(existsSync(cached as string)).toBe(false);
  });

  // The suite runs on Node 24 in CI (.ci/run): the build it loads is then a Node 24 build to cache.
  it.runIf(process.versions.modules === NODE24_MODULES)('uses a cached Node 24 build', () => {
    const cacheHome = join(scratch, 'cache-24');
    const cached = /at (\S+)/.exec(node24(['cached-addon'], { XDG_CACHE_HOME: cacheHome }).stderr)?.[1] as string;
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(loadedBuild, cached);
    expect(node24(['cached-addon'], { XDG_CACHE_HOME: cacheHome })).toMatchObject({ status: 0, stdout: `${cached}\n` });
  });
});

import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig, loadConfigWithWarnings } from './config.ts';

/** The ConfigError loadConfig throws for an environment (fails the test when it does not throw). */
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
};

describe('variables EduPass does not read', () => {
  it('a near miss of a name it reads, or an unknown EDUPASS_ name, is warned with the fix; others are not', () => {
    const { warnings } = loadConfigWithWarnings({
      DATABSE_URL: 'postgres://db/edupass',
      REDIS_ULR: 'redis://cache:6379',
      EDUPASS_DATABASE: 'x',
      // Names it reads, some only as built at run time (a secret's _FILE twin), and others' names.
      JWT_SECRET_FILE: '',
      SMTP_HOST: '',
      HOME: '/root',
      PATH: '/usr/bin',
      HOSTNAME: 'web-1',
      NODE_OPTIONS: '--max-old-space-size=512',
    });
    expect(warnings).toEqual([
      'DATABSE_URL is not a variable EduPass reads: did you mean DATABASE_URL? Fix: rename it to DATABASE_URL.',
      'EDUPASS_DATABASE is not a variable EduPass reads (it is ignored). Fix: remove it, or see docs/deploy.md.',
      'REDIS_ULR is not a variable EduPass reads: did you mean REDIS_URL? Fix: rename it to REDIS_URL.',
    ]);
  });

  it('the machine running this test has no variable that is warned about', () => {
    expect(loadConfigWithWarnings({ ...process.env, NODE_ENV: 'test' }).warnings).toEqual([]);
  });
});

describe('roster imports', () => {
  it('hold and job hours are settings; the bounds of a roster zip are fixed whatever the environment says', () => {
    const config = loadConfig({ EDU_ROSTER_HOLD_PERCENT: '25', EDU_ROSTER_JOB_HOURS: '24' });
    expect([config.eduRosterHoldPercent, config.eduRosterJobHours]).toEqual([25, 24]);
    expect(problemsOf({ EDU_ROSTER_JOB_HOURS: '0' })).toEqual([
      expect.stringMatching(/^EDU_ROSTER_JOB_HOURS="0".*Fix: /),
    ]);
    const bounds = ({
      eduRosterZipMaxBytes,
      eduRosterEntriesMax,
      eduRosterEntryMaxBytes,
      eduRosterRatioMax,
    }: Config) => [eduRosterZipMaxBytes, eduRosterEntriesMax, eduRosterEntryMaxBytes, eduRosterRatioMax];
    const set = { EDU_ROSTER_ZIP_MAX_BYTES: '5242880', EDU_ROSTER_ENTRIES_MAX: '40' };
    expect(bounds(loadConfig(set))).toEqual(bounds(loadConfig({})));
    expect(bounds(loadConfig({}))).toEqual([20 * 1024 * 1024, 16, 64 * 1024 * 1024, 200]);
  });

  it('a bound that was once a setting, still set, is warned about at start with its fix, never ignored silently', () => {
    const { warnings } = loadConfigWithWarnings({
      EDU_ROSTER_ZIP_MAX_BYTES: '5242880',
      EDU_ROSTER_ENTRIES_MAX: '40',
      EDU_ROSTER_ENTRY_MAX_BYTES: '1048576',
      EDU_ROSTER_RATIO_MAX: '50',
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^EDU_ROSTER_ENTRIES_MAX=40 is no longer read: a roster zip may hold 16 entries;.*Fix: remove EDU_ROSTER_ENTRIES_MAX/,
      ),
      expect.stringMatching(/^EDU_ROSTER_ENTRY_MAX_BYTES=1048576 is no longer read: .*67108864 bytes.*Fix: remove /),
      expect.stringMatching(/^EDU_ROSTER_RATIO_MAX=50 is no longer read: .*200 to 1.*Fix: remove /),
      expect.stringMatching(/^EDU_ROSTER_ZIP_MAX_BYTES=5242880 is no longer read: .*20971520 bytes.*Fix: remove /),
    ]);
    for (const warning of warnings) expect(warning).toContain('docs/education.md');
  });
});

describe('loadConfig', () => {
  it('has working defaults: port 8080, embedded SQLite under ./data, the edupass product', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBe('./data/edupass.db');
    expect(config.products).toEqual({ edupass: 'edupass' });
    expect(config.production).toBe(false);
  });

  it('USAGE_DATABASE_URL: events in the accounts database by default, in ClickHouse with a clickhouse:// URL', () => {
    expect(loadConfig({}).usageDatabaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: '/srv/edupass/edupass.db' }).usageSpoolDir).toBe('/srv/edupass/usage-spool');
    const config = loadConfig({ USAGE_DATABASE_URL: 'clickhouse://u:p@ch:8123/events', USAGE_SPOOL_DIR: '/spool' });
    expect([config.usageDatabaseUrl, config.usageSpoolDir]).toEqual(['clickhouse://u:p@ch:8123/events', '/spool']);
    expect(problemsOf({ USAGE_DATABASE_URL: 'postgres://db/events' })).toEqual([
      expect.stringMatching(/USAGE_DATABASE_URL.*clickhouse:\/\/.*Fix:/),
    ]);
  });

  it('OAUTH_WITHOUT_STATE: off by default; a comma list of pids (or *) turns code steps without state on', () => {
    expect(loadConfig({}).oauthWithoutState).toEqual([]);
    expect(loadConfig({ OAUTH_WITHOUT_STATE: 'site2, edupass,' }).oauthWithoutState).toEqual(['site2', 'edupass']);
  });

  it('reads good values', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/edupass',
      PRODUCTS: 'edupass:edupass, site2:code2',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(config.port).toBe(9000);
    expect(config.databaseUrl).toBe('postgres://u@127.0.0.1:5432/edupass');
    expect(config.products).toEqual({ edupass: 'edupass', site2: 'code2' });
    expect(config.jwtSecret).toHaveLength(32);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT', /PORT="abc" must be a whole number from 0 to 65535\. Fix: set PORT=8080/],
    [{ PORT: '70000' }, 'PORT', /Fix: /],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', /DATABASE_URL="mysql:\/\/x".*postgres:\/\/.*Fix: /],
    [{ PRODUCTS: 'bad' }, 'PRODUCTS', /PRODUCTS entry "bad" must be pid:product_code\. Fix: e\.g\. PRODUCTS=/],
    [{ PRODUCTS: ',' }, 'PRODUCTS', /PRODUCTS names no product\. Fix: /],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET', /JWT_SECRET must be at least 32 characters\. Fix: JWT_SECRET=/],
    [{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE', /must be true or false\. Fix: /],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL', /must be a http: or https: URL\. Fix: /],
    [{ LOGIN_SLOWDOWN_AFTER: '9', LOGIN_LOCK_AFTER: '3' }, 'LOGIN_LOCK_AFTER', /Fix: /],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY', /not an address: 10\.0\.0\.0\/33.*Fix: e\.g\. TRUST_PROXY=1/],
    [{ TRUST_PROXY: 'nginx' }, 'TRUST_PROXY', /Fix: /],
    [
      { NODE_ENV: 'prodution' },
      'NODE_ENV',
      /NODE_ENV="prodution" must be one of production, development, test, or unset\. Fix: NODE_ENV=production\./,
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL',
      /LOG_LEVEL="verbose" must be one of fatal, error, warn, info, debug, trace, silent\. Fix: /,
    ],
  ])('%j is a ConfigError naming %s and the fix', (env, variable, message) => {
    const problems = problemsOf(env);
    const named = problems.find((problem) => problem.includes(variable));
    expect(named, problems.join('\n')).toMatch(message);
    for (const problem of problems) expect(problem).toMatch(/Fix: /);
  });

  it('reports every bad variable at once, in a message that lists them', () => {
    const env = { PORT: 'abc', DATABASE_URL: 'mysql://x', PRODUCTS: 'bad', JWT_SECRET: 'short' };
    const problems = problemsOf(env);
    for (const name of Object.keys(env)) expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
    expect(() => loadConfig(env)).toThrow(
      /Invalid configuration:\n {2}- PORT="abc"[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET/,
    );
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', 1],
    ['2', 2],
    ['127.0.0.1, 10.0.0.0/8,loopback,::1', ['127.0.0.1', '10.0.0.0/8', 'loopback', '::1']],
  ])('TRUST_PROXY=%s trusts %j (true is one hop, never the whole header)', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });
});

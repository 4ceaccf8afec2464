/**
 * README.md's configuration table is where an operator finds every setting: each environment
 * variable the server's configuration reads is named in the first column of one of its rows, and
 * each name there is one it reads (a setting removed leaves no row behind).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../packages/server/src/config/config.ts';
import { KNOWN_VARIABLES, recordingReads } from '../packages/server/src/config/variable-names.ts';

const root = join(import.meta.dirname, '..');
const configDir = join(root, 'packages/server/src/config');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** What `loadConfig` reads from `env` (names built at run time included), valid or not. */
const readsOf = (env: Record<string, string>) => {
  const { env: recorded, read } = recordingReads(env);
  try {
    loadConfig(recorded);
  } catch {
    // a ConfigError still read everything it reports on
  }
  return [...read];
};

/**
 * Every optional part on, so that the names read only beside another (SMTP_PORT with SMTP_HOST,
 * the S3 keys with AVATAR_S3_ENDPOINT…) are read too.
 */
const EVERY_PART_ON = {
  SMTP_HOST: 'smtp.example.com',
  SMS_PROVIDER: 'tencent',
  REALNAME_PROVIDER: 'tencent',
  AVATAR_S3_ENDPOINT: 'https://s3.example.com',
  WECHAT_APP_ID: 'wx1',
  WECHAT_APP_SECRET: 'secret',
  QQ_APP_ID: '1',
  QQ_APP_KEY: 'key',
  METRICS_PORT: '9464',
  USAGE_DATABASE_URL: 'clickhouse://user:password@clickhouse:8123/events',
  JWT_SECRET_FILE: '/nonexistent',
  JWT_SECRET_PREVIOUS_FILE: '/nonexistent',
};

/** Names spelled out in the configuration modules ('SMTP_PORT', a vendor field's `env: 'GEETEST_KEY'`). */
const spelledOut = () =>
  readdirSync(configDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) =>
      Array.from(
        readFileSync(join(configDir, file), 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g),
        (m) => m[1] as string, // the one group of a match
      ),
    );

/** Every environment variable the configuration reads. */
const readVariables = () =>
  new Set<string>([...KNOWN_VARIABLES, ...readsOf({}), ...readsOf(EVERY_PART_ON), ...spelledOut()]);

/** The names in the first column of README.md's configuration table (`JWT_SECRET` or `JWT_SECRET_FILE`: both). */
const tableNames = (text: string) => {
  const section = text.slice(text.indexOf('\n## Configuration\n'));
  const end = section.indexOf('\n## ', 1);
  const rows = (end === -1 ? section : section.slice(0, end)).split('\n').filter((line) => line.startsWith('| `'));
  return new Set(
    rows.flatMap((row) =>
      Array.from((row.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g), (m) => m[1] as string),
    ),
  );
};

/** The variables the configuration reads that README.md's table does not name. */
const undocumented = (text: string) => {
  const named = tableNames(text);
  return [...readVariables()].filter((name) => !named.has(name)).sort();
};

describe("README.md's configuration table", () => {
  it('names every variable the configuration reads', () => {
    const variables = readVariables();
    // The list is the configuration's, not an empty one: the names read only beside another are in it.
    for (const name of ['DATABASE_URL', 'SMTP_PORT', 'AVATAR_S3_REGION', 'GEETEST_KEY', 'JWT_SECRET_PREVIOUS_FILE']) {
      expect(variables).toContain(name);
    }
    expect(undocumented(readme)).toEqual([]);
  });

  it('names only variables the configuration reads', () => {
    const variables = readVariables();
    expect([...tableNames(readme)].filter((name) => !variables.has(name))).toEqual([]);
  });

  it('fails for a variable whose row is missing, or that is named only outside the first column', () => {
    const withoutRow = readme.replace(/^\| `LOG_LEVEL` \|.*\n/m, '');
    expect(withoutRow).not.toBe(readme);
    expect(undocumented(withoutRow)).toEqual(['LOG_LEVEL']);
    // Named elsewhere in README.md ("a proof no older than `STEP_UP_SECONDS`"), but in no row's first column.
    const namedElsewhere = readme.replace(/^\| `STEP_UP_SECONDS` \|/m, '| the step-up window |');
    expect(namedElsewhere.match(/`STEP_UP_SECONDS`/g)?.length).toBeGreaterThan(0);
    expect(undocumented(namedElsewhere)).toEqual(['STEP_UP_SECONDS']);
  });
});

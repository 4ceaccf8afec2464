import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { FEDERATION_CERT, startSamlFederation } from '@edupass/test-kit/saml-federation';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { doctor } from './cli/doctor.ts';
import { splitCsvLine } from './cli/import-users.ts';
import { runCli } from './cli.ts';
import { createUsageWriter } from './services/usage/group-commit.ts';
import { findSetting } from './store/admin/settings.ts';
import { listPolicies, putPolicy } from './store/captcha/captcha.ts';
import { openStore, type Store } from './store/db.ts';
import { usageDb, writeUsage } from './store/usage/events.ts';
import { sqlEventsStore } from './store/usage/events-sql.ts';

let database: TestDatabase;
let store: Store;
const output: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.LOG_LEVEL = 'warn';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void output.push(args.join(' ')));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  expect(await runCli(['migrate'])).toBe(0);
  store = openStore(database.url);
});

afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_URL;
  await store?.close();
  await database?.drop();
});

const lastLine = () => output.at(-1) ?? '';

/** A usage event row with every column the table cannot go without. */
const eventRow = (id: string) => ({
  product_code: 'edupass',
  event_id: id,
  event_key: 'click',
  at: 1_790_100_000_000,
  received_at: 1_790_100_000_500,
  data: '{}',
  ip: '127.0.0.1',
  is_dev: 0,
});

/** The stored event ids that start with a prefix, in order. */
const storedEventIds = async (prefix: string) =>
  (
    await usageDb(store.db)
      .selectFrom('usage_events')
      .select('event_id')
      .where('event_id', 'like', `${prefix}%`)
      .orderBy('event_id')
      .execute()
  ).map((r) => r.event_id);

describe('edupass --version', () => {
  test("prints the server package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'])).toBe(0);
    expect(lastLine()).toBe(version);
  });
});

describe('edupass migrate', () => {
  test('a second run finds the schema up to date', async () => {
    expect(await runCli(['migrate'])).toBe(0);
    expect(lastLine()).toBe('The schema is up to date.');
  });
});

describe('edupass keys', () => {
  test('list shows the signing key; rotate adds the next one; rotate --now one that signs at once', async () => {
    expect(await runCli(['keys', 'list'])).toBe(0);
    expect(lastLine()).toMatch(/^1 +signing +ES256 +\S{43}/m);
    expect(await runCli(['keys', 'rotate'])).toBe(0);
    expect(lastLine()).toMatch(/^New signing key \S+\. It is published now and signs new tokens from \d{4}-/);
    expect(await runCli(['keys', 'rotate', '--now'])).toBe(0);
    expect(lastLine()).toMatch(/It signs new tokens now\./);
    expect(await runCli(['keys', 'list'])).toBe(0);
    expect(lastLine()).toMatch(/^1 +retiring[\s\S]*^2 +retiring[\s\S]*^3 +signing/m);
  });
});

describe('edupass keys reset-keyring', () => {
  const OTHER = 'another-secret-of-this-test-0123456789abcdef';

  test('refuses while the secret opens the keyring; once it does not, resets it and names what is lost', async () => {
    expect(await runCli(['keys', 'list'])).toBe(0);
    expect(await runCli(['keys', 'reset-keyring'])).toBe(1);
    expect(lastLine()).toBe('The keyring opens with JWT_SECRET: nothing to reset.');
    try {
      process.env.JWT_SECRET = OTHER;
      await expect(runCli(['keys', 'list'])).rejects.toThrow(/JWT_SECRET does not open the keyring[\s\S]*Fix:/);
      expect(await runCli(['keys', 'reset-keyring'])).toBe(0);
      expect(lastLine()).toMatch(/^The keyring is deleted[\s\S]*apps rotate-secret/);
      expect(await runCli(['keys', 'list'])).toBe(0);
      // Back to the database's own secret, the other one as the previous: the keyring is sealed again.
      process.env.JWT_SECRET = await findSetting(store.db, 'secret');
      process.env.JWT_SECRET_PREVIOUS = OTHER;
      expect(await runCli(['keys', 'list'])).toBe(0);
    } finally {
      delete process.env.JWT_SECRET;
      delete process.env.JWT_SECRET_PREVIOUS;
    }
    expect(await runCli(['keys', 'reset-keyring'])).toBe(1);
  });
});

describe('edupass admin create', () => {
  test('creates an operator account, and promotes an existing one', async () => {
    // A staff password meets the staff policy (12 characters, 3 kinds by default).
    await expect(runCli(['admin', 'create', '13900000001', '--password', 'admin-pass1'])).rejects.toThrow(
      /Staff passwords need at least 12 characters[\s\S]*STAFF_PASSWORD_MIN_LENGTH/,
    );
    expect(await runCli(['admin', 'create', '13900000001', '--password', 'admin-pass-12'])).toBe(0);
    expect(lastLine()).toMatch(/^Created operator \d+ \(13900000001\): system,security\.$/);
    const user = await store.db
      .selectFrom('users')
      .selectAll()
      .where('phone', '=', '13900000001')
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('operator');
    await store.db.updateTable('users').set({ role: 'user' }).where('id', '=', user.id).execute();
    expect(await runCli(['admin', 'create', '13900000001'])).toBe(0);
    expect(lastLine()).toContain('is now an operator: system,security.');
    // An auditor is appointed with --duties; an unknown duty is refused before anything changes.
    expect(await runCli(['admin', 'create', '13900000001', '--duties', 'auditor'])).toBe(0);
    expect(lastLine()).toContain('is now an operator: auditor.');
    await expect(runCli(['admin', 'create', '13900000001', '--duties', 'root'])).rejects.toThrow(
      /--duties takes system, security, auditor/,
    );
  });

  test('refuses a bad phone and a new account without a password, saying what to give', async () => {
    await expect(runCli(['admin', 'create', '123'])).rejects.toThrow(/Invalid phone_number "123".*13800138000/);
    await expect(runCli(['admin', 'create', '13900000002'])).rejects.toThrow(/Give --password/);
  });
});

describe('edupass users import', () => {
  test('imports 10,000 rows, reporting each bad row by its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edupass-import-'));
    const file = join(dir, 'users.csv');
    const lines = ['phone,nickname,email,password'];
    const bad = new Map<number, string>();
    for (let i = 0; i < 10_000; i++) {
      const lineNumber = lines.length + 1;
      if (i % 1000 === 7) {
        lines.push(`12${String(i).padStart(9, '0')},n${i},,`);
        bad.set(lineNumber, 'Invalid phone_number');
      } else if (i % 1000 === 8) {
        lines.push(`137${String(i).padStart(8, '0')},only-three-cells,x@y.cn`);
        bad.set(lineNumber, 'Expected 4 cells');
      } else if (i % 1000 === 9) {
        lines.push(`136${String(i - 3).padStart(8, '0')},"dup${i}",,`); // the phone of a good row above
        bad.set(lineNumber, 'already taken');
      } else {
        lines.push(
          `136${String(i).padStart(8, '0')},"n${i}",user${i}@example.com,${i % 2000 === 0 ? 'pass-word1' : ''}`,
        );
      }
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const code = await runCli(['users', 'import', file]);
    expect(code).toBe(2);
    expect(lastLine()).toBe(`Imported ${10_000 - bad.size} users; ${bad.size} rows refused.`);
    for (const [line, reason] of bad) {
      expect(
        output.find((o) => o.startsWith(`line ${line}: `)),
        `line ${line}`,
      ).toContain(reason);
    }
    const withPassword = await store.db
      .selectFrom('users')
      .select(['email', 'password_hash', 'nickname'])
      .where('phone', '=', '13600000000')
      .executeTakeFirstOrThrow();
    expect(withPassword.password_hash).toMatch(/^\$argon2id\$/);
    expect(withPassword.nickname).toBe('n0');
    expect(withPassword.email).toBe('user0@example.com');
  }, 120_000);

  test('an unknown header column stops the import and names the columns', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'bad.csv');
    writeFileSync(file, 'phone,shoe_size\n13800000000,42\n');
    await expect(runCli(['users', 'import', file])).rejects.toThrow(/Unknown column "shoe_size".*Columns: phone/);
  });

  test('rows without a nickname get a unique default one (用户 + 8 digits); given ones are kept', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'nicknames.csv');
    const phones = Array.from({ length: 300 }, (_, i) => `135${String(i).padStart(8, '0')}`);
    writeFileSync(file, `phone,nickname\n${phones.map((p, i) => `${p},${i === 0 ? '自己起的' : ''}`).join('\n')}\n`);
    expect(await runCli(['users', 'import', file])).toBe(0);
    const rows = await store.db
      .selectFrom('users')
      .select(['phone', 'nickname'])
      .where('phone', 'in', phones)
      .execute();
    expect(rows).toHaveLength(300);
    const defaults = rows.filter((r) => r.phone !== phones[0]).map((r) => r.nickname);
    expect(defaults.every((n) => /^用户\d{8}$/.test(n ?? ''))).toBe(true);
    expect(new Set(defaults).size).toBe(299);
    expect(rows.find((r) => r.phone === phones[0])?.nickname).toBe('自己起的');
  });

  test('a CSV saved by Chinese Excel (GBK) is decoded, and the answer says so', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'gbk.csv');
    // 小明 and 张三 in GBK; CRLF line ends, as Excel writes them.
    const gbk = (hex: string) => Buffer.from(hex, 'hex');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('phone,nickname,fullname\r\n13300000001,'),
        gbk('d0a1c3f7'),
        Buffer.from(','),
        gbk('d5c5c8fd'),
        Buffer.from('\r\n'),
      ]),
    );
    expect(await runCli(['users', 'import', file])).toBe(0);
    expect(output).toContain('The file is not UTF-8: read as GB18030 (GBK) text.');
    const user = await store.db
      .selectFrom('users')
      .select(['nickname', 'fullname'])
      .where('phone', '=', '13300000001')
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ nickname: '小明', fullname: '张三' });
  });

  test('a UTF-8 file with a byte-order mark reads its header', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'bom.csv');
    writeFileSync(file, '\uFEFFphone,nickname\n13300000002,小红\n');
    output.length = 0;
    expect(await runCli(['users', 'import', file])).toBe(0);
    expect(output.join('\n')).not.toContain('GB18030');
  });

  test('a clash names the column whose value is taken', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'clash.csv');
    writeFileSync(
      file,
      'phone,email,username,password\n' +
        '13300000011,clash-a@example.com,clash_a,Kestrel2718\n' +
        '13300000012,clash-a@example.com,clash_b,Kestrel2718\n' +
        '13300000011,clash-c@example.com,clash_c,Kestrel2718\n' +
        '13300000014,clash-d@example.com,CLASH_A,Kestrel2718\n',
    );
    expect(await runCli(['users', 'import', file])).toBe(2);
    expect(output).toContain('line 3: Column "email": this value is already taken by another account.');
    expect(output).toContain('line 4: Column "phone": this value is already taken by another account.');
    expect(output).toContain('line 5: Column "username": this value is already taken by another account.');
  });

  test('CSV cells follow RFC 4180 quoting', () => {
    expect(splitCsvLine('a,"b,c","d""e",')).toEqual(['a', 'b,c', 'd"e', '']);
  });
});

describe('edupass events export / import', () => {
  test('an export imported into another database reproduces the same rows, and twice changes nothing', async () => {
    const events = Array.from({ length: 12_000 }, (_, i) => ({
      product_code: 'edupass',
      event_id: `e-${String(i).padStart(6, '0')}`,
      event_key: i % 3 === 0 ? 'page_view' : 'click',
      at: 1_790_000_000_000 + i,
      received_at: 1_790_000_000_500 + i,
      dur: i % 5 === 0 ? i : null,
      data: JSON.stringify({ n: i, s: 'quote " and 中文' }),
      device_uid: `d-${i % 40}`,
      user_id: i % 2 ? `u-${i % 9}` : null,
      process_id: null,
      ip: '127.0.0.1',
      ua: 'test',
      platform: 'web',
      net: '4g',
      language: 'zh-CN',
      resolution: '1280x720',
      cpu: 8,
      density: 2,
      is_dev: 0,
    }));
    await writeUsage(usageDb(store.db), { events, beacons: [] });
    const dir = mkdtempSync(join(tmpdir(), 'edupass-events-'));
    expect(await runCli(['events', 'export', join(dir, 'a.jsonl')])).toBe(0);
    expect(lastLine()).toBe(`Exported 12000 events to ${join(dir, 'a.jsonl')}.`);

    const other = await createTestDatabase();
    process.env.DATABASE_URL = other.url;
    try {
      expect(await runCli(['migrate'])).toBe(0);
      expect(await runCli(['events', 'import', join(dir, 'a.jsonl')])).toBe(0);
      expect(await runCli(['events', 'import', join(dir, 'a.jsonl')])).toBe(0);
      expect(await runCli(['events', 'export', join(dir, 'b.jsonl')])).toBe(0);
      expect(lastLine()).toContain('Exported 12000 events');
    } finally {
      process.env.DATABASE_URL = database.url;
      await other.drop();
    }
    expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'a.jsonl'), 'utf8'));
  }, 120_000);

  test('lines that are not event rows are reported by line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-events-')), 'bad.jsonl');
    writeFileSync(file, '{"product_code":"edupass"}\nnot json\n');
    expect(await runCli(['events', 'import', file])).toBe(2);
    expect(output).toContain('line 2: not JSON');
    expect(output.some((o) => o.startsWith('line 1: not a usage event row'))).toBe(true);
  });

  test('lines missing data, ip or is_dev are reported by line and the good lines are imported', async () => {
    const without = (id: string, field: 'data' | 'ip' | 'is_dev') => {
      const { [field]: _dropped, ...rest } = eventRow(id);
      return rest;
    };
    const lines = [
      eventRow('missing-fields-good-1'),
      without('missing-fields-no-data', 'data'),
      without('missing-fields-no-ip', 'ip'),
      eventRow('missing-fields-good-2'),
      without('missing-fields-no-is-dev', 'is_dev'),
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-events-')), 'missing.jsonl');
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    output.length = 0;
    expect(await runCli(['events', 'import', file])).toBe(2);
    for (const line of [2, 3, 5]) {
      expect(output.some((o) => o.startsWith(`line ${line}: not a usage event row`))).toBe(true);
    }
    expect(output.filter((o) => o.startsWith('line '))).toHaveLength(3);
    expect(await storedEventIds('missing-fields-')).toEqual(['missing-fields-good-1', 'missing-fields-good-2']);
  });
});

describe('edupass doctor', () => {
  test('passes on a good configuration', async () => {
    const findings = await doctor({ DATABASE_URL: database.url });
    expect(findings.filter((f) => !f.ok)).toEqual([]);
  });

  test('names each broken setting and its fix', async () => {
    const bad = await doctor({ PORT: 'abc', PRODUCTS: 'nocolon' });
    expect(bad.map((f) => f.detail).join('\n')).toMatch(/PORT="abc".*Fix: set PORT=8080/);
    expect(bad.map((f) => f.detail).join('\n')).toMatch(/PRODUCTS entry "nocolon"/);

    // Production without a signing secret from outside the database is a configuration error.
    const noSecret = await doctor({ NODE_ENV: 'production' });
    expect(noSecret.map((f) => f.detail).join('\n')).toMatch(/needs a signing secret.*Fix: JWT_SECRET=/);

    const unreachable = await doctor({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
      NODE_ENV: 'production',
      JWT_SECRET: 'doctor-production-secret-0123456789abcdef',
    });
    const broken = Object.fromEntries(unreachable.filter((f) => !f.ok).map((f) => [f.check, f.detail]));
    expect(broken.database).toMatch(/cannot be opened.*Fix:/);
    expect(broken.redis).toMatch(/does not answer.*Fix:/);
    expect(broken.secrets).toBeUndefined();
    expect(broken['public url']).toMatch(/https/);
    expect(broken.email).toMatch(/SMTP_HOST.*Fix:/);
    expect(broken.sms).toMatch(/SMS_PROVIDER.*Fix:/);
    expect(broken.captcha).toMatch(/not checked.*Fix:/);
  });
});

describe('usage group commit', () => {
  test('rows of one request that the store refuses fail only that request, not the others written with it', async () => {
    const writer = createUsageWriter(sqlEventsStore(store.db), 100_000);
    // A row with no data breaks the NOT NULL column at the database, whatever the parsing in front.
    const refused = { ...eventRow('group-commit-refused'), data: null as unknown as string };
    const answers = await Promise.allSettled([
      writer.add({ events: [eventRow('group-commit-1')], beacons: [] }),
      writer.add({ events: [refused], beacons: [] }),
      writer.add({ events: [eventRow('group-commit-2')], beacons: [] }),
      writer.add({ events: [eventRow('group-commit-3')], beacons: [] }),
    ]);
    await writer.idle();
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await storedEventIds('group-commit-')).toEqual(['group-commit-1', 'group-commit-2', 'group-commit-3']);
  });
});

describe('edupass captcha policy reset', () => {
  test("removes a product's console policies, then every product's; sign-in is under risk again", async () => {
    const updated_at = Date.now();
    await putPolicy(store.db, { pid: 'edupass', scene: 'login', policy: 'always', updated_at });
    await putPolicy(store.db, { pid: 'edupass', scene: '*', policy: 'never', updated_at });
    await putPolicy(store.db, { pid: '*', scene: '*', policy: 'always', updated_at });
    expect(await runCli(['captcha', 'policy', 'reset', 'edupass'])).toBe(0);
    expect(lastLine()).toBe(
      'Removed 2 captcha policies of edupass: *=never, login=always. Password sign-in to edupass is now under policy always.',
    );
    expect(await runCli(['captcha', 'policy', 'reset', '*'])).toBe(0);
    expect(lastLine()).toBe('Removed 1 captcha policy of *: *=always. Password sign-in is now under policy risk.');
    expect(await runCli(['captcha', 'policy', 'reset', 'edupass'])).toBe(0);
    expect(lastLine()).toBe(
      'No captcha policy was set for edupass in the console. Password sign-in to edupass is now under policy risk.',
    );
    expect(await listPolicies(store.db)).toEqual([]);
  });
});

describe('edupass webhooks', () => {
  test('add, list, resend and remove', async () => {
    const url = 'https://hooks.example.com/edupass';
    expect(await runCli(['webhooks', 'add', 'edupass', url, '--events', 'user.created,user.blocked'])).toBe(0);
    const secretLine = output.find((line) => line.startsWith('Signing secret'));
    expect(secretLine).toMatch(/whsec_[A-Za-z0-9+/=]{40,}/);
    const id = /Added webhook (\d+)/.exec(output.join('\n'))?.[1];
    expect(id).toBeDefined();

    output.length = 0;
    expect(await runCli(['webhooks', 'list'])).toBe(0);
    expect(output).toEqual([`${id}\tedupass\ton\t${url}\tuser.created,user.blocked`]);

    await expect(runCli(['webhooks', 'resend', '999999'])).rejects.toThrow(/No webhook delivery 999999/);
    await expect(runCli(['webhooks', 'add', 'edupass', 'http://127.0.0.1:9/x'])).rejects.toThrow(/loopback or private/);

    expect(await runCli(['webhooks', 'remove', String(id)])).toBe(0);
    output.length = 0;
    expect(await runCli(['webhooks', 'list'])).toBe(0);
    expect(output).toEqual(['No webhook endpoints.']);
  });
});

const secretHash = async (clientId: string) =>
  (await store.db.selectFrom('applications').select('secret_hash').where('client_id', '=', clientId).executeTakeFirst())
    ?.secret_hash;

describe('edupass apps', () => {
  test('adds a confidential application with its secret shown once, rotates it, lists and removes it', async () => {
    const redirect = [
      '--redirect',
      'https://courses.example.com/callback',
      '--post-logout',
      'https://courses.example.com/',
    ];
    expect(await runCli(['apps', 'add', 'Courses', ...redirect])).toBe(0);
    const [clientId = ''] = lastLine().split(/\s+/);
    const secret = /client secret \(shown once\): (\S+)/.exec(lastLine())?.[1] ?? '';
    expect(secret.length).toBeGreaterThan(30);
    const stored = await secretHash(clientId);
    expect(stored).toBeTypeOf('string');
    expect(stored).not.toContain(secret);

    expect(await runCli(['apps', 'rotate-secret', clientId])).toBe(0);
    const rotated = /\(shown once\): (\S+)/.exec(lastLine())?.[1];
    expect(rotated).not.toBe(secret);
    expect(await secretHash(clientId)).not.toBe(stored);

    expect(await runCli(['apps', 'list'])).toBe(0);
    expect(lastLine()).toContain(`${clientId}  Courses`);
    expect(lastLine()).toContain('first-party, confidential');
    expect(lastLine()).not.toContain(String(rotated));

    expect(await runCli(['apps', 'remove', clientId])).toBe(0);
    expect(await secretHash(clientId)).toBeUndefined();
  });

  test('a public third-party application gets no secret, and cannot rotate one', async () => {
    expect(
      await runCli(['apps', 'add', 'Quiz', '--redirect', 'https://quiz.example.com/cb', '--public', '--third-party']),
    ).toBe(0);
    expect(lastLine()).toContain('third-party, public (PKCE)');
    expect(lastLine()).not.toContain('secret (shown once)');
    const [clientId = ''] = lastLine().split(/\s+/);
    await expect(runCli(['apps', 'rotate-secret', clientId])).rejects.toThrow(/No confidential application/);
  });

  test('refuses a redirect URI that is not an absolute http(s) URL, saying so', async () => {
    await expect(runCli(['apps', 'add', 'Bad', '--redirect', 'javascript:alert(1)'])).rejects.toThrow(
      /redirect URI must be an http\(s\) URL/,
    );
    await expect(runCli(['apps', 'add', 'None'])).rejects.toThrow(/At least one redirect URI/);
    await expect(runCli(['apps', 'remove', 'nope'])).rejects.toThrow(/No application has this client id/);
  });
});

describe('edupass schools', () => {
  test('adds a CAS connector to a school with its mapping, lists it, and refuses a plain-http server', async () => {
    const school = await store.db
      .insertInto('schools')
      .values({ name: '第三中学', daily_batches: null, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = String(school.id);
    const server = ['--server', 'https://cas.sanzhong.edu.cn/cas', '--name', '三中统一身份认证'];
    expect(
      await runCli(['schools', 'connector', 'add', id, 'sanzhong', ...server, '--mapping', '{"pupil_values":["XS"]}']),
    ).toBe(0);
    expect(lastLine()).toContain(`sanzhong  cas  school ${id}  三中统一身份认证`);
    expect(lastLine()).toContain('"pupil_values":["xs"]');
    expect(await runCli(['schools', 'connectors'])).toBe(0);
    expect(lastLine()).toContain('"server_url":"https://cas.sanzhong.edu.cn/cas"');
    await expect(
      runCli([
        'schools',
        'connector',
        'add',
        id,
        'sanzhong-2',
        '--server',
        'http://cas.sanzhong.edu.cn/cas',
        '--name',
        'x',
      ]),
    ).rejects.toThrow(/must be https/);
    await expect(
      runCli(['schools', 'connector', 'add', id, 'sanzhong-3', ...server, '--mapping', '{']),
    ).rejects.toThrow(/--mapping must be JSON/);
  });
  test('adds a SAML connector for an institution of a federation, its metadata checked at once', async () => {
    const federation = await startSamlFederation(() => 'http://127.0.0.1:1');
    try {
      const school = await store.db
        .insertInto('schools')
        .values({ name: '北方示范大学附中', daily_batches: null, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const certFile = join(mkdtempSync(join(tmpdir(), 'edupass-cert-')), 'carsi.pem');
      writeFileSync(certFile, FEDERATION_CERT);
      const saml = ['--saml-metadata', federation.metadataUrl, '--federation-cert', certFile, '--name', '北方示范大学'];
      const add = (code: string, idp: string) =>
        runCli([
          'schools',
          'connector',
          'add',
          String(school.id),
          code,
          ...saml,
          '--idp',
          idp,
          '--refresh-minutes',
          '30',
        ]);
      expect(await add('beifang', federation.idp.entityId)).toBe(0);
      expect(lastLine()).toContain(`beifang  saml  school ${school.id}  北方示范大学`);
      expect(lastLine()).toContain('"refresh_minutes":30');
      expect(lastLine()).toContain('"subject":"opaque-id"');
      await expect(add('beifang-2', 'https://nowhere.example/idp')).rejects.toThrow(/names no identity provider/);
    } finally {
      await federation.close();
    }
  });
});

describe('edupass schools roster import', () => {
  test('previews a template file for a school, refuses to apply a held job without --accept-removals, applies it with', async () => {
    const school = await store.db
      .insertInto('schools')
      .values({ name: '第四中学', daily_batches: null, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const dir = mkdtempSync(join(tmpdir(), 'roster-cli-'));
    const rows = Array.from({ length: 10 }, (_, i) => `第四中学,初一(1)班,初一,2026-2027,学生${i},学生,${1000 + i}`);
    const file = join(dir, 'roster.csv');
    const parent = '第四中学,初一(1)班,初一,2026-2027,学生家长,家长,2000';
    writeFileSync(file, `学校,班级,年级,学年,姓名,角色,学号/编号\n${rows.join('\n')}\n${parent}\n`);
    expect(await runCli(['schools', 'roster', 'import', file, '--school', String(school.id)])).toBe(0);
    expect(lastLine()).toMatch(/Roster import (\d+): preview \(template, utf-8, 11 rows\)/);
    expect(lastLine()).toContain('10 pupils new');
    // A refused row: where it is and why, in a sentence.
    expect(lastLine()).toContain('template.csv:12 角色: Only pupils and teachers are imported; this role is left out.');
    const job = /Roster import (\d+)/.exec(lastLine())?.[1] ?? '';
    expect(await runCli(['schools', 'roster', 'import', '--confirm', job])).toBe(0);
    expect(lastLine()).toContain(`Roster import ${job}: applied`);
    // Three of ten pupils leave: 30 % is held.
    writeFileSync(file, `学校,班级,年级,学年,姓名,角色,学号/编号\n${rows.slice(3).join('\n')}\n`);
    expect(await runCli(['schools', 'roster', 'import', file])).toBe(0);
    expect(lastLine()).toContain('HELD: removes 3 of 10 people of 第四中学 (30 % > 10 %)');
    const held = /Roster import (\d+)/.exec(lastLine())?.[1] ?? '';
    await expect(runCli(['schools', 'roster', 'import', '--confirm', held])).rejects.toThrow(/accept_removals/);
    expect(await runCli(['schools', 'roster', 'import', '--confirm', held, '--accept-removals'])).toBe(0);
    expect(lastLine()).toContain('3 removed');
  });
});

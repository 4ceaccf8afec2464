/**
 * The `edupass` command: `npx edupass <command>` (or `npm run edupass -- <command>` in the repository).
 */
import { parseArgs } from 'node:util';
import { createAdmin, parseDuties } from './cli/admin.ts';
import { APPS_OPTIONS, APPS_USAGE, runApps } from './cli/apps.ts';
import { CAPTCHA_USAGE, resetPolicyCommand } from './cli/captcha.ts';
import { doctor } from './cli/doctor.ts';
import { exportEvents, importEvents } from './cli/events.ts';
import { importUsers } from './cli/import-users.ts';
import { REPORT_OPTIONS, REPORT_USAGE, runReport } from './cli/report.ts';
import { ROSTER_OPTIONS, ROSTER_USAGE, runRoster } from './cli/roster.ts';
import { runSchools, SCHOOLS_OPTIONS, SCHOOLS_USAGE } from './cli/school-connectors.ts';
import { listKeys, rotateKeys } from './cli/signing-keys.ts';
import { WEBHOOKS_USAGE, webhooksCommand } from './cli/webhooks.ts';
import { loadConfig } from './config/config.ts';
import { createContext } from './context.ts';
import { loadEnvFile } from './env-file.ts';
import { exportAuditLogAs } from './services/admin/audit-export.ts';
import { verifyAuditChains, verifyReport } from './services/admin/audit-verify.ts';
import { resetKeyring, serverSecrets } from './services/security/keyring.ts';
import { rotateRecords } from './services/security/record-keys.ts';
import { openStore } from './store/db.ts';
import { migrate } from './store/migrate.ts';

const USAGE = `Usage: edupass <command>   (edupass --version: the version)

  serve                                    run the server (what \`npm start\` runs)
  admin create <phone> [--password <pw>] [--duties <d>]
                                           make (or create) an operator account; --duties: system
                                           (users, schools, apps, settings), security (keys, captcha,
                                           limits, staff-read approvals), auditor (reads the audit log
                                           only), comma-separated; default system,security
  migrate                                  bring the database schema up to date
  users import <file.csv>                  import users (columns: phone,email,username,nickname,password,fullname)
  events export <file.jsonl>               write every stored usage event, one JSON row a line
  events import <file.jsonl>               load exported usage events (already stored ones are skipped)
  keys list                                the keys that sign access tokens, and where each stands
  keys rotate [--now]                      add a signing key: published now, signing after 15 minutes
                                           (--now: at once); the old one verifies until its tokens expire
  keys rotate-records                      a new generation of the keys that seal children's records; every
                                           record is sealed again under it (the others keep opening)
  keys reset-keyring                       when JWT_SECRET's previous value is lost: a new keyring (the keys
                                           of stored hashes and secrets) at the next start; lists what is lost
  doctor                                   check the configuration and what it points at
  backup <file>                            copy the SQLite database to <file> while it is in use
  audit verify                             check the audit's and the access log's chains: prints the first
                                           broken link (row id, time); exits 1 when one is broken
  audit export --log audit|reads --as <phone> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]
                                           the audit log or the log of reads of people's records as CSV,
                                           in the name of an operator with the auditor duty (audited)
${CAPTCHA_USAGE}
${WEBHOOKS_USAGE}
${APPS_USAGE}
${SCHOOLS_USAGE}
${ROSTER_USAGE}
${REPORT_USAGE}

Configuration comes from the same environment variables as the server (see README), and from ./.env.`;

const POSTGRES_BACKUP =
  'DATABASE_URL is PostgreSQL: back it up with its own tools, e.g. pg_dump --format=custom --file=edupass.dump "$DATABASE_URL" (restore with pg_restore --clean --dbname=...), or continuous archiving; see docs/operators.md.';

const quietLogger = {
  info() {},
  warn(obj: object, msg?: string) {
    console.warn(msg ?? '', obj);
  },
  error(obj: object, msg?: string) {
    console.error(msg ?? '', obj);
  },
};

const withContext = async <T>(run: (ctx: Awaited<ReturnType<typeof createContext>>) => Promise<T>): Promise<T> => {
  const ctx = await createContext(loadConfig(), quietLogger);
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
};

/** The version of this server (its package.json, beside src/ and dist/ alike). */
const serverVersion = async (): Promise<string> => {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
};

/** A day given as YYYY-MM-DD, in China time: its first (or, for `end`, last) millisecond. */
const dayOf = (day: string | undefined, end = false) => {
  if (day === undefined) return undefined;
  const start = Date.parse(`${day}T00:00:00+08:00`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) throw new Error(`Not a day (YYYY-MM-DD): ${day}`);
  return end ? start + 86_400_000 - 1 : start;
};

/** `runCli`'s answer for `serve`: the server now runs until a signal stops it, so no exit. */
export const SERVING = 'serving';

export const runCli = async (argv: string[]): Promise<number | typeof SERVING> => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      duties: { type: 'string' },
      now: { type: 'boolean' },
      events: { type: 'string' },
      as: { type: 'string' },
      log: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      ...APPS_OPTIONS,
      ...SCHOOLS_OPTIONS,
      ...ROSTER_OPTIONS,
      ...REPORT_OPTIONS,
    },
  });
  const [command, sub, arg] = positionals;
  if (values.version) {
    console.log(await serverVersion());
    return 0;
  }
  if (values.help || command === undefined) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  if (command === 'serve') {
    // main.ts starts the server as it loads, and owns the process from then on (signals, exit).
    await import('./main.ts');
    return SERVING;
  }
  if (command === 'admin' && sub === 'create' && arg) {
    const duties = parseDuties(values.duties);
    console.log(await withContext((ctx) => createAdmin(ctx, arg, values.password, duties)));
    return 0;
  }
  if (command === 'keys' && (sub === 'list' || sub === 'rotate')) {
    console.log(await withContext((ctx) => (sub === 'list' ? listKeys(ctx) : rotateKeys(ctx, values.now === true))));
    return 0;
  }
  if (command === 'keys' && sub === 'rotate-records') {
    console.log(await withContext((ctx) => rotateRecords(ctx.db, ctx.keys, quietLogger, ctx.config.sealAllRecords)));
    return 0;
  }
  if (command === 'keys' && sub === 'reset-keyring') {
    const config = loadConfig();
    const store = openStore(config.databaseUrl, { poolSize: 1 });
    try {
      const { reset, message } = await resetKeyring(store.db, await serverSecrets(store.db, config));
      console.log(message);
      return reset ? 0 : 1;
    } finally {
      await store.close();
    }
  }
  if (command === 'captcha' && sub === 'policy' && arg === 'reset' && positionals[3]) {
    const pid = positionals[3];
    console.log(await withContext((ctx) => resetPolicyCommand(ctx, pid)));
    return 0;
  }
  if (command === 'migrate') {
    const store = openStore(loadConfig().databaseUrl, { poolSize: 1 });
    try {
      const applied = await migrate(store);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.');
    } finally {
      await store.close();
    }
    return 0;
  }
  if (command === 'users' && sub === 'import' && arg) {
    const report = await withContext((ctx) => importUsers(ctx, arg));
    if (report.encoding !== 'utf-8') console.log('The file is not UTF-8: read as GB18030 (GBK) text.');
    for (const { line, reason } of report.problems) console.log(`line ${line}: ${reason}`);
    console.log(`Imported ${report.imported} users; ${report.problems.length} rows refused.`);
    return report.problems.length > 0 ? 2 : 0;
  }
  if (command === 'events' && sub === 'export' && arg) {
    const count = await withContext((ctx) => exportEvents(ctx, arg));
    console.log(`Exported ${count} events to ${arg}.`);
    return 0;
  }
  if (command === 'events' && sub === 'import' && arg) {
    const report = await withContext((ctx) => importEvents(ctx, arg));
    for (const { line, reason } of report.problems) console.log(`line ${line}: ${reason}`);
    console.log(`Read ${report.read} events (already stored ones skipped); ${report.problems.length} lines refused.`);
    return report.problems.length > 0 ? 2 : 0;
  }
  if (command === 'backup' && sub) {
    const store = openStore(loadConfig().databaseUrl, { poolSize: 1 });
    try {
      if (store.backup === undefined) {
        console.error(POSTGRES_BACKUP);
        return 2;
      }
      const pages = await store.backup(sub);
      console.log(
        `Backed up ${pages} pages to ${sub}. To restore: stop the server, copy ${sub} over the database file (removing its -wal and -shm files), start it.`,
      );
    } finally {
      await store.close();
    }
    return 0;
  }
  if (command === 'webhooks') {
    const lines = await withContext((ctx) => webhooksCommand(ctx, positionals.slice(1), values.events));
    if (lines !== undefined) {
      for (const line of lines) console.log(line);
      return 0;
    }
  }
  if (command === 'apps') {
    const printed = await withContext((ctx) => runApps(ctx, sub, arg, values));
    if (printed !== undefined) {
      console.log(printed);
      return 0;
    }
  }
  if (command === 'schools') {
    const printed = await withContext(
      async (ctx) =>
        (await runRoster(ctx, positionals.slice(1), values)) ?? runSchools(ctx, positionals.slice(1), values),
    );
    if (printed !== undefined) {
      console.log(printed);
      return 0;
    }
  }
  if (command === 'report') {
    const printed = await withContext((ctx) => runReport(ctx, sub, values));
    if (printed !== undefined) {
      console.log(printed);
      return 0;
    }
  }
  if (command === 'audit' && sub === 'verify') {
    const { ok, lines } = await withContext(async (ctx) => verifyReport(await verifyAuditChains(ctx)));
    for (const line of lines) console.log(line);
    return ok ? 0 : 1;
  }
  if (command === 'audit' && sub === 'export') {
    const query = { log: values.log, from: dayOf(values.from), to: dayOf(values.to, true) };
    await withContext(async (ctx) => {
      // Each page printed as read: console.log's line break stands for the page's last "\n"; the
      // export's last line ends with a bare line break.
      let pending: string | undefined;
      for await (const chunk of (await exportAuditLogAs(ctx, values.as, query)).chunks) {
        if (pending !== undefined) console.log(pending.slice(0, -1));
        pending = chunk;
      }
      if (pending !== undefined) console.log(pending.trimEnd());
    });
    return 0;
  }
  if (command === 'doctor') {
    const findings = await doctor();
    for (const f of findings) console.log(`${f.ok ? '✓' : '✗'} ${f.check}: ${f.detail}`);
    const broken = findings.filter((f) => !f.ok).length;
    console.log(broken === 0 ? 'All checks passed.' : `${broken} problem${broken === 1 ? '' : 's'} to fix.`);
    return broken === 0 ? 0 : 1;
  }
  console.error(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
  return 1;
};

/** Runs a command line and exits with its status; a failure prints its message, not a stack. */
export const main = (argv: string[]) =>
  Promise.resolve()
    .then(() => {
      loadEnvFile();
      return runCli(argv);
    })
    .then(
      (code) => {
        if (code !== SERVING) process.exit(code);
      },
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));

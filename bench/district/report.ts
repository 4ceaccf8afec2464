/**
 * The district run's figures: per database, flow and concurrency the rate, the CPU per flow and the
 * per-core rate it gives, the database's own counters per flow and each step's p50/p99; then every
 * target beside what was measured and the published anchors beside it.
 */
import type { LoadResult } from './load.ts';
import { STEP_ORDER } from './load.ts';

export interface Measured {
  database: 'sqlite' | 'postgres';
  flow: string;
  concurrency: number;
  load: LoadResult;
  serverCpuMs: number;
  databaseCpuMs: number;
  /**
   * PostgreSQL's counters per flow: the flow's statements (the background workers' polls left out,
   * test-kit pg-counters.ts), all statements, BEGIN and COMMIT (each a round trip too), commits that
   * wrote, WAL records and bytes.
   */
  counters?: {
    statements: number;
    allStatements: number;
    transactionControl: number;
    plans: number;
    writeCommits: number;
    walRecords: number;
    walBytes: number;
  };
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

const ms = (v: number) => (Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const one = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(1));

/** Flows per second one core gives, from the CPU a flow costs the server and its database. */
export const perCore = (m: Measured) => 1000 / (m.serverCpuMs + m.databaseCpuMs);
export const rate = (m: Measured) => m.load.ok / m.load.seconds;

export const describeMeasured = (m: Measured) => {
  const steps = STEP_ORDER.filter((step) => m.load.steps[step]?.length)
    .map((step) => {
      const values = m.load.steps[step] ?? [];
      return `${step} ${ms(percentile(values, 50))}/${ms(percentile(values, 99))}`;
    })
    .join(', ');
  const counted = m.counters
    ? `; per flow ${one(m.counters.statements)} statements (${one(m.counters.allStatements)} with the workers' polls, ` +
      `${one(m.counters.plans)} planned) and ${one(m.counters.transactionControl)} BEGIN/COMMIT, ` +
      `${one(m.counters.writeCommits)} commits, ` +
      `${one(m.counters.walRecords)} WAL records, ${(m.counters.walBytes / 1024).toFixed(1)} KB WAL`
    : '';
  return (
    `${m.database} ${m.flow} ×${m.concurrency}: ${one(rate(m))} flows/s (${m.load.failed} failed), ` +
    `CPU per flow ${ms(m.serverCpuMs)} ms server + ${ms(m.databaseCpuMs)} ms database${m.database === 'postgres' ? ' (PostgreSQL + Redis)' : ''} → ${one(perCore(m))}/core${counted}\n` +
    `    p50/p99 ms: ${steps}; whole flow ${ms(percentile(m.load.flows, 50))}/${ms(percentile(m.load.flows, 99))}` +
    (m.load.firstError ? `\n    first failure: ${m.load.firstError.slice(0, 200)}` : '')
  );
};

export interface Verdict {
  what: string;
  measured: string;
  target: string;
  met: boolean | undefined;
  anchor: string;
}

export const printVerdicts = (verdicts: Verdict[]) => {
  const rows = [
    ['figure', 'measured', 'target', 'met', 'published anchor'],
    ...verdicts.map((v) => [v.what, v.measured, v.target, v.met === undefined ? '–' : v.met ? 'yes' : 'NO', v.anchor]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  for (const row of rows) console.log(`| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`);
};

/** The anchors (their flows and hardware differ from ours; README.md). */
export const ANCHORS = {
  keycloakPassword: 'Keycloak sizing guide: 15 password logins/s per vCPU',
  keycloakRefresh: 'Keycloak sizing guide: 120 refreshes/s per vCPU',
  zitadel: 'Zitadel v4: 39 password logins/s on up to 7×6 vCPU, p99 40.6 s',
  keycloakIops: 'Keycloak: 14 write IOPS budgeted per login',
};

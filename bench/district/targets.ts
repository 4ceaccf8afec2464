/** The district run's targets (issue: a district at 08:00), each judged from what was measured. */
import { ANCHORS, type Measured, perCore, type Verdict } from './report.ts';

export const TARGETS = {
  passwordPerCoreSqlite: 60,
  passwordPerCorePostgres: 50,
  postgresVsSqlite: 0.8,
  cardPerCoreSqlite: 300,
  cardServerCpuMs: 3,
  p99AtEightyPercentMs: 1000,
  statementsPerPasswordSignIn: 15,
  walSyncsPerPasswordSignIn: 5,
  profileP99DuringBurstMs: 50,
};

/** The open loop's figures on one database (district.ts). */
export interface OpenLoopFigures {
  /** Sign-ins started per second. */
  rate: number;
  /** The whole flow's p99, ms, of those that signed in. */
  p99: number;
  failed: number;
  /** Answers 503 (the hash queue full) that a sign-in asked again after, as the web client does. */
  answers503: number;
  /** The server's core's busy share over the loop. */
  busy: number;
}

interface Outcome {
  measured: Measured[];
  walSyncsPerFlow: Record<string, number>;
  openLoops: Record<string, OpenLoopFigures>;
  bursts: Record<string, { profileP99: number; seconds: number; busy: number; failed: number }>;
}

const f = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
const atLeast = (v: number | undefined, target: number) =>
  v === undefined || Number.isNaN(v) ? undefined : v >= target;
const atMost = (v: number | undefined, target: number) =>
  v === undefined || Number.isNaN(v) ? undefined : v <= target;

export const verdictsOf = ({ measured, walSyncsPerFlow, openLoops, bursts }: Outcome): Verdict[] => {
  const of = (database: string, flow: string) => measured.filter((m) => m.database === database && m.flow === flow);
  /** The best per-core rate over the concurrencies measured. */
  const bestPerCore = (database: string, flow: string) => {
    const runs = of(database, flow);
    return runs.length ? Math.max(...runs.map(perCore)) : undefined;
  };
  const lowest = (database: string, flow: string, pick: (m: Measured) => number | undefined) => {
    const values = of(database, flow)
      .map(pick)
      .filter((v): v is number => v !== undefined);
    return values.length ? Math.min(...values) : undefined;
  };
  const passwordSqlite = bestPerCore('sqlite', 'password');
  const passwordPostgres = bestPerCore('postgres', 'password');
  const T = TARGETS;
  const verdicts: Verdict[] = [
    {
      what: 'password sign-ins per core, SQLite',
      measured: f(passwordSqlite),
      target: `≥ ${T.passwordPerCoreSqlite}`,
      met: atLeast(passwordSqlite, T.passwordPerCoreSqlite),
      anchor: ANCHORS.keycloakPassword,
    },
    {
      what: 'password sign-ins per core, PostgreSQL',
      measured: f(passwordPostgres),
      target: `≥ ${T.passwordPerCorePostgres}`,
      met: atLeast(passwordPostgres, T.passwordPerCorePostgres),
      anchor: ANCHORS.zitadel,
    },
    {
      what: 'password per core, PostgreSQL ÷ SQLite',
      measured: passwordSqlite && passwordPostgres ? `${f(passwordPostgres / passwordSqlite, 2)}×` : '–',
      target: `≥ ${T.postgresVsSqlite}×`,
      met: passwordSqlite && passwordPostgres ? passwordPostgres / passwordSqlite >= T.postgresVsSqlite : undefined,
      anchor: '',
    },
    {
      what: 'card sign-ins per core, SQLite',
      measured: f(bestPerCore('sqlite', 'card')),
      target: `≥ ${T.cardPerCoreSqlite}`,
      met: atLeast(bestPerCore('sqlite', 'card'), T.cardPerCoreSqlite),
      anchor: '',
    },
    {
      what: 'card sign-in, server CPU ms, SQLite',
      measured: f(
        lowest('sqlite', 'card', (m) => m.serverCpuMs),
        2,
      ),
      target: `≤ ${T.cardServerCpuMs}`,
      met: atMost(
        lowest('sqlite', 'card', (m) => m.serverCpuMs),
        T.cardServerCpuMs,
      ),
      anchor: '',
    },
    ...['sqlite', 'postgres'].flatMap((database) => [
      {
        what: `refreshes per core, ${database}`,
        measured: f(bestPerCore(database, 'refresh')),
        target: '–',
        met: undefined,
        anchor: ANCHORS.keycloakRefresh,
      },
      {
        what: `SMS sign-ins per core, ${database}`,
        measured: f(bestPerCore(database, 'sms')),
        target: '–',
        met: undefined,
        anchor: '',
      },
      {
        what: `whole-flow p99 ms at 80 % of the rate, ${database}`,
        measured: openLoops[database]
          ? `${f(openLoops[database].p99, 0)} at ${f(openLoops[database].rate)}/s (${openLoops[database].failed} failed, ${openLoops[database].answers503} × 503, core ${f(openLoops[database].busy * 100, 0)} % busy)`
          : '–',
        target: `≤ ${T.p99AtEightyPercentMs}`,
        // A sign-in that never got in has no latency to count: the p99 holds only with none failed.
        met:
          openLoops[database] === undefined || openLoops[database].failed === 0
            ? atMost(openLoops[database]?.p99, T.p99AtEightyPercentMs)
            : false,
        anchor: 'Zitadel v4: p99 40.6 s',
      },
      {
        what: `profile read p99 ms, ${database}, during the burst`,
        measured: bursts[database]
          ? `${f(bursts[database].profileP99, 0)} (all in ${f(bursts[database].seconds)} s, ${bursts[database].busy} × 503)`
          : '–',
        target: `≤ ${T.profileP99DuringBurstMs}`,
        met: atMost(bursts[database]?.profileP99, T.profileP99DuringBurstMs),
        anchor: '',
      },
    ]),
    ...['password', 'card', 'sms', 'refresh'].map((flow) => {
      const statements = lowest('postgres', flow, (m) => m.counters?.statements);
      const commits = lowest('postgres', flow, (m) => m.counters?.writeCommits);
      const syncs = walSyncsPerFlow[`postgres ${flow}`];
      const password = flow === 'password';
      return {
        // The verdict of the password row is its statements; its WAL syncs have their own row below.
        what: `PostgreSQL per ${flow} flow: statements; commits; WAL syncs`,
        measured: `${f(statements)}; ${f(commits)}; ${f(syncs)}`,
        target: password ? `≤ ${T.statementsPerPasswordSignIn}; –; ≤ ${T.walSyncsPerPasswordSignIn}` : '–',
        met: password ? atMost(statements, T.statementsPerPasswordSignIn) : undefined,
        anchor: password ? ANCHORS.keycloakIops : '',
      };
    }),
    {
      what: 'PostgreSQL WAL syncs per password flow',
      measured: f(walSyncsPerFlow['postgres password']),
      target: `≤ ${T.walSyncsPerPasswordSignIn}`,
      met: atMost(walSyncsPerFlow['postgres password'], T.walSyncsPerPasswordSignIn),
      anchor: '',
    },
  ];
  return verdicts;
};

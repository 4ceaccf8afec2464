/**
 * The yearly report (issue #31 item 6; the yearly compliance audit of the Regulations on the
 * Protection of Minors Online): exact counts over one calendar year in China time — minors' accounts,
 * guardian consents granted, refused and withdrawn, data-rights requests made and answered and how
 * long they took, staff reads of records and approvals, deletions. The same answer feeds the console's
 * export and `edupass report yearly`; `yearlyReportCsv` (protocol) writes it as CSV. Read on the
 * replica where one is configured (`readDb`).
 *
 * Accounts, consents, reads and approvals are the year's twelve months of counters
 * (store/admin/report-counters.ts), kept as the events happened, so an account erased since still
 * counts; minors' accounts at the year's end are every month's accounts opened, erased and moved
 * between bands up to December. Requests and deletions come from the data-rights requests, which
 * outlive the account.
 */
import { CHINA_OFFSET_MS, DAY_MS, type YearlyReport } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { countsBetween, type Figure } from '../../store/admin/report-counters.ts';
import { requestsClosed, requestsMade, requestsOpenLateAt, type Window } from '../../store/admin/yearly-report.ts';

const MINOR_BANDS = ['under_8', '8_13', '14_15', '16_17'] as const;
const CHILD_BANDS = ['under_8', '8_13'] as const;

/** The year's first and last millisecond, China time. */
export const yearWindow = (year: number): Window => ({
  from: Date.UTC(year, 0, 1) - CHINA_OFFSET_MS,
  to: Date.UTC(year + 1, 0, 1) - CHINA_OFFSET_MS - 1,
});

const days = (ms: number) => Math.round((ms / DAY_MS) * 100) / 100;

type Closed = Awaited<ReturnType<typeof requestsClosed>>;

/** The answered requests' figures (done or refused), from the closed requests' sums. */
const answeredFigures = (closed: Closed) => {
  const rows = closed.filter((row) => row.status === 'done' || row.status === 'refused');
  const handled: Record<string, number> = {};
  let count = 0;
  let total = 0;
  let longest: number | null = null;
  for (const row of rows) {
    handled[row.kind] = (handled[row.kind] ?? 0) + row.n;
    count += row.n;
    total += row.took;
    longest = Math.max(longest ?? 0, row.longest);
  }
  const sum = (keep: (row: Closed[number]) => boolean) => rows.filter(keep).reduce((s, row) => s + row.n, 0);
  return {
    handled,
    refused: sum((row) => row.status === 'refused'),
    late: sum((row) => row.late),
    average: count === 0 ? null : days(total / count),
    longest: longest === null ? null : days(longest),
  };
};

/** Deletions closed with `status`, by who asked. */
const deletionsClosed = (closed: Closed, status: 'done' | 'cancelled') => {
  const by: Record<string, number> = {};
  for (const row of closed)
    if (row.kind === 'deletion' && row.status === status) by[row.requested_by] = (by[row.requested_by] ?? 0) + row.n;
  return by;
};

type Sums = Awaited<ReturnType<typeof countsBetween>>;

/** One figure's sums by key, in `keys`' order when given (else by key), without the keys that sum to nothing. */
const byKey = (sums: Sums, figure: Figure, keys?: readonly string[]): Record<string, number> => {
  const found = new Map(sums.filter((s) => s.figure === figure).map((s) => [s.key, s.n]));
  const order = keys ?? [...found.keys()].sort();
  return Object.fromEntries(order.map((key) => [key, found.get(key) ?? 0]).filter(([, count]) => count !== 0));
};

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, count) => sum + count, 0);

/** Minors' accounts at the year's end, by band: opened, less erased, plus moved in, every month up to December. */
const atYearEnd = (sums: Sums) => {
  const [opened, erased, moved] = (['opened', 'erased', 'moved'] as const).map((f) => byKey(sums, f, MINOR_BANDS));
  const bands = MINOR_BANDS.map((band): [string, number] => [
    band,
    (opened?.[band] ?? 0) - (erased?.[band] ?? 0) + (moved?.[band] ?? 0),
  ]);
  return Object.fromEntries(bands.filter(([, count]) => count !== 0));
};

export const yearlyReport = async (ctx: Pick<Context, 'readDb'>, year: number): Promise<YearlyReport> => {
  const window = yearWindow(year);
  const db = ctx.readDb;
  const [inYear, untilYearEnd, made, closed, openLate] = await Promise.all([
    countsBetween(db, year * 100 + 1, year * 100 + 12, [
      'opened',
      'erased',
      'consents',
      'reads',
      'operator_reads_of_minors',
      'people_read',
      'approvals',
    ]),
    countsBetween(db, 0, year * 100 + 12, ['opened', 'erased', 'moved']),
    requestsMade(db, window),
    requestsClosed(db, window),
    requestsOpenLateAt(db, window),
  ]);
  const figures = answeredFigures(closed);
  const erased = deletionsClosed(closed, 'done');
  const cancelled = deletionsClosed(closed, 'cancelled');
  const consents = byKey(inYear, 'consents');
  const approvals = byKey(inYear, 'approvals');
  return {
    year,
    from: window.from,
    to: window.to,
    minors: {
      accounts_at_year_end: atYearEnd(untilYearEnd),
      opened: total(byKey(inYear, 'opened', MINOR_BANDS)),
      children_opened: total(byKey(inYear, 'opened', CHILD_BANDS)),
      erased: total(byKey(inYear, 'erased', MINOR_BANDS)),
      children_erased: total(byKey(inYear, 'erased', CHILD_BANDS)),
    },
    consents: { granted: consents.granted ?? 0, refused: consents.refused ?? 0, withdrawn: consents.withdrawn ?? 0 },
    requests: {
      made,
      handled: figures.handled,
      refused: figures.refused,
      answered_late: figures.late,
      open_late_at_year_end: openLate,
      days_to_answer: { average: figures.average, longest: figures.longest },
    },
    staff_accesses: {
      reads: byKey(inYear, 'reads'),
      operator_reads_of_minors: total(byKey(inYear, 'operator_reads_of_minors')),
      people_read: total(byKey(inYear, 'people_read', MINOR_BANDS)),
      children_read: total(byKey(inYear, 'people_read', CHILD_BANDS)),
      approvals: {
        requested: approvals.requested ?? 0,
        approved: approvals.approved ?? 0,
        refused: approvals.refused ?? 0,
      },
    },
    deletions: { erased, cancelled: total(cancelled) },
  };
};

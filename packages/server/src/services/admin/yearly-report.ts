/**
 * The yearly report (issue #31 item 6; the yearly compliance audit of the Regulations on the
 * Protection of Minors Online): exact counts over one calendar year in China time, from the rows the
 * database holds when it is run — minors' accounts, guardian consents granted, refused and withdrawn,
 * data-rights requests made and answered and how long they took, staff reads of records and
 * approvals, deletions. The same answer feeds the console's export and `edupass report yearly`;
 * `yearlyReportCsv` (protocol) writes it as CSV. What an erased account took with it (its access-log
 * rows, its account row) is no longer counted; the requests and consent decisions outlive it.
 */
import { CHINA_OFFSET_MS, DAY_MS, type YearlyReport } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import {
  approvalFigures,
  consentDecisions,
  deletionsClosed,
  minorsAtYearEnd,
  minorsOpened,
  readFigures,
  readsByRole,
  requestsAnswered,
  requestsMade,
  requestsOpenLateAt,
  type Window,
} from '../../store/admin/yearly-report.ts';

/** The year's first and last millisecond, China time. */
export const yearWindow = (year: number): Window => ({
  from: Date.UTC(year, 0, 1) - CHINA_OFFSET_MS,
  to: Date.UTC(year + 1, 0, 1) - CHINA_OFFSET_MS - 1,
});

const days = (ms: number) => Math.round((ms / DAY_MS) * 100) / 100;

const answeredFigures = (rows: Awaited<ReturnType<typeof requestsAnswered>>) => {
  const handled: Record<string, number> = {};
  let late = 0;
  let refused = 0;
  let total = 0;
  let longest: number | null = null;
  for (const row of rows) {
    handled[row.kind] = (handled[row.kind] ?? 0) + 1;
    const took = Number(row.closed_at) - Number(row.created_at);
    total += took;
    longest = Math.max(longest ?? 0, took);
    if (Number(row.closed_at) > Number(row.due_at)) late++;
    if (row.status === 'refused') refused++;
  }
  return {
    handled,
    refused,
    late,
    average: rows.length === 0 ? null : days(total / rows.length),
    longest: longest === null ? null : days(longest),
  };
};

export const yearlyReport = async (ctx: Pick<Context, 'db'>, year: number): Promise<YearlyReport> => {
  const window = yearWindow(year);
  const { db } = ctx;
  const [atYearEnd, opened, consents, made, answered, openLate, reads, readFigure, approvals, erased, cancelled] =
    await Promise.all([
      minorsAtYearEnd(db, window),
      minorsOpened(db, window),
      consentDecisions(db, window),
      requestsMade(db, window),
      requestsAnswered(db, window),
      requestsOpenLateAt(db, window),
      readsByRole(db, window),
      readFigures(db, window),
      approvalFigures(db, window),
      deletionsClosed(db, window, 'done'),
      deletionsClosed(db, window, 'cancelled'),
    ]);
  const figures = answeredFigures(answered);
  return {
    year,
    from: window.from,
    to: window.to,
    minors: { accounts_at_year_end: atYearEnd, opened },
    consents: {
      granted: consents.granted ?? 0,
      refused: consents.refused ?? 0,
      withdrawn: consents.withdrawn ?? 0,
    },
    requests: {
      made,
      handled: figures.handled,
      refused: figures.refused,
      answered_late: figures.late,
      open_late_at_year_end: openLate,
      days_to_answer: { average: figures.average, longest: figures.longest },
    },
    staff_accesses: {
      reads,
      operator_reads_of_minors: readFigure.operatorReadsOfMinors,
      people_read: readFigure.people,
      approvals,
    },
    deletions: {
      erased,
      cancelled: Object.values(cancelled).reduce((sum, count) => sum + count, 0),
    },
  };
};

/** `edupass report yearly --year <YYYY> [--format json|csv]`: the console's yearly report, printed. */
import { yearlyReportCsv } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { yearlyReport } from '../services/admin/yearly-report.ts';

export const REPORT_USAGE = `  report yearly --year <YYYY> [--format json|csv]
                                           the yearly report: minors' accounts, consents, requests,
                                           staff accesses, deletions (exact counts, China time)`;

export const REPORT_OPTIONS = {
  year: { type: 'string' },
  format: { type: 'string' },
} as const;

export interface ReportValues {
  year?: string | undefined;
  format?: string | undefined;
}

/** What to print for `report …`, or undefined for a sub-command it does not know. */
export const runReport = async (ctx: Context, sub: string | undefined, values: ReportValues) => {
  if (sub !== 'yearly') return undefined;
  const year = Number(values.year);
  if (!/^\d{4}$/.test(values.year ?? '') || year < 2000 || year > 2100) {
    throw new Error('--year must be a year from 2000 to 2100, e.g. --year 2026.');
  }
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new Error('--format must be json or csv.');
  const report = await yearlyReport(ctx, year);
  return format === 'csv' ? yearlyReportCsv(report).trimEnd() : JSON.stringify(report, null, 2);
};

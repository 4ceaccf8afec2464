/**
 * `edupass report yearly --year <YYYY> [--csv] [--lang zh-CN|en]`: the console's yearly report, printed
 * as JSON, or as CSV in the filing's order (protocol's yearly-report.ts) labelled in Chinese (as it is
 * filed) or English. `--format json|csv` is the older spelling of the same choice.
 */
import { type ReportLanguage, yearlyReportCsv } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { yearlyReport } from '../services/admin/yearly-report.ts';

export const REPORT_USAGE = `  report yearly --year <YYYY> [--csv] [--lang zh-CN|en]
                                           the yearly report: children's and minors' accounts, consents,
                                           requests, staff accesses, deletions (exact counts, China time);
                                           JSON, or with --csv the filing's fields in order (labels in
                                           Chinese, or English with --lang en)`;

export const REPORT_OPTIONS = {
  year: { type: 'string' },
  format: { type: 'string' },
  csv: { type: 'boolean' },
  lang: { type: 'string' },
} as const;

export interface ReportValues {
  year?: string | undefined;
  format?: string | undefined;
  csv?: boolean | undefined;
  lang?: string | undefined;
}

const LANGUAGES: readonly ReportLanguage[] = ['zh-CN', 'en'];

/** What to print for `report …`, or undefined for a sub-command it does not know. */
export const runReport = async (ctx: Context, sub: string | undefined, values: ReportValues) => {
  if (sub !== 'yearly') return undefined;
  const year = Number(values.year);
  if (!/^\d{4}$/.test(values.year ?? '') || year < 2000 || year > 2100) {
    throw new Error('--year must be a year from 2000 to 2100, e.g. --year 2026.');
  }
  const format = values.csv ? 'csv' : (values.format ?? 'json');
  if (format !== 'json' && format !== 'csv') throw new Error('--format must be json or csv.');
  const language = (values.lang ?? 'zh-CN') as ReportLanguage;
  if (!LANGUAGES.includes(language)) throw new Error('--lang must be zh-CN or en.');
  const report = await yearlyReport(ctx, year);
  return format === 'csv' ? yearlyReportCsv(report, language).trimEnd() : JSON.stringify(report, null, 2);
};

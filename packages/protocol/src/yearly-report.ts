/**
 * The yearly report as CSV: one line per figure (`section,figure,value`), flattened from the JSON
 * answer in its own order, so the CLI (`edupass report yearly --format csv`) and the console's export
 * write the same file.
 */
import type { YearlyReport } from './rights-routes.ts';

const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

const flatten = (prefix: string, value: unknown, out: [string, string][]) => {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(prefix === '' ? key : `${prefix}.${key}`, inner, out);
  } else {
    out.push([prefix, value === null ? '' : String(value)]);
  }
};

export const yearlyReportCsv = (report: YearlyReport): string => {
  const rows: [string, string][] = [];
  flatten('', report, rows);
  const lines = rows.map(([path, value]) => {
    const dot = path.indexOf('.');
    const [section, figure] = dot < 0 ? ['report', path] : [path.slice(0, dot), path.slice(dot + 1)];
    return [section, figure, value].map(cell).join(',');
  });
  return `section,figure,value\n${lines.join('\n')}\n`;
};

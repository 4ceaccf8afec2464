/**
 * The auditor's exports (GB/T 22239-2019 level 3: audit records the auditor reads and keeps apart): the
 * operators' audit log and the log of reads of people's records, as CSV, from the console
 * (`GET /admin/audit/export`) and the CLI (`edupass audit export`). Only an operator with the auditor
 * duty exports; their own rows are left out (no one reads their own trail); each export is itself an
 * audit row (`audit.export`: which log, the window, how many rows). Nothing here deletes or changes a row.
 */
import type { AuditExport } from '@edupass/protocol';
import { dutiesOf } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, invalidRequest } from '../../errors.ts';
import { findUserByPhone } from '../../store/account/users.ts';
import { auditRowsToExport, type ExportFilter, readRowsToExport } from '../../store/admin/admin.ts';
import { audit } from './operations.ts';

export const EXPORT_LOGS = ['audit', 'reads'] as const;
export type ExportLog = (typeof EXPORT_LOGS)[number];

/** At most this many rows an export (a narrower window gives the rest). */
export const EXPORT_MAX_ROWS = 100_000;
const DAY = 86_400_000;

/** A CSV field: quoted when it holds a comma, a quote or a line break; a leading =+-@ is made text. */
const field = (value: unknown) => {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const csvOf = (header: readonly string[], rows: readonly (readonly unknown[])[]) =>
  [header, ...rows]
    .map((row) => row.map(field).join(','))
    .join('\r\n')
    .concat('\r\n');

const iso = (ms: number) => new Date(ms).toISOString();

const logOf = (log: string | undefined): ExportLog => {
  if (log !== undefined && (EXPORT_LOGS as readonly string[]).includes(log)) return log as ExportLog;
  throw invalidRequest(`log: one of ${EXPORT_LOGS.join(', ')}`);
};

/** The export's CSV; the export audited in the auditor's name. */
export const exportAuditLog = async (
  ctx: Context,
  auditorId: number,
  query: { log?: string | undefined; from?: number | undefined; to?: number | undefined },
): Promise<AuditExport> => {
  const log = logOf(query.log);
  const to = query.to ?? ctx.now();
  const from = query.from ?? to - 366 * DAY;
  if (from > to) throw invalidRequest('from must be before to.');
  const filter: ExportFilter = { from, to, notOperatorId: auditorId, limit: EXPORT_MAX_ROWS };
  const csv =
    log === 'audit'
      ? auditCsv(await auditRowsToExport(ctx.db, filter))
      : readsCsv(await readRowsToExport(ctx.db, filter));
  const rows = csv.split('\r\n').length - 2;
  await audit(ctx, auditorId, 'audit.export', `log:${log}`, `${iso(from)}..${iso(to)} rows=${rows}`);
  return { log, rows, csv };
};

const auditCsv = (rows: Awaited<ReturnType<typeof auditRowsToExport>>) =>
  csvOf(
    ['id', 'at', 'operator_id', 'operator_phone', 'action', 'target', 'detail'],
    rows.map((r) => [r.id, iso(r.at), r.operator_id, r.operator_phone ?? '', r.action, r.target, r.detail]),
  );

const readsCsv = (rows: Awaited<ReturnType<typeof readRowsToExport>>) =>
  csvOf(
    ['id', 'at', 'reader_id', 'reader_role', 'subject_id', 'fields', 'purpose', 'reason'],
    rows.map((r) => [r.id, iso(r.created_at), r.reader_id, r.reader_role, r.subject_id, r.fields, r.purpose, r.reason]),
  );

/** The CLI's export, in the name of the operator with phone `phone`, who must hold the auditor duty. */
export const exportAuditLogAs = async (
  ctx: Context,
  phone: string | undefined,
  query: { log?: string | undefined; from?: number | undefined; to?: number | undefined },
) => {
  const operator = phone === undefined ? undefined : await findUserByPhone(ctx.db, phone);
  if (operator === undefined || operator.role !== 'operator' || !dutiesOf(operator.operator_duties).includes('auditor'))
    throw new ApiError('E_4', 'The export is the auditor’s: give --as <phone> of an operator with the auditor duty.');
  return exportAuditLog(ctx, operator.id, query);
};

/**
 * The auditor's exports (GB/T 22239-2019 level 3: audit records the auditor reads and keeps apart): the
 * operators' audit log and the log of reads of people's records, as CSV, from the console
 * (`GET /admin/audit/export`) and the CLI (`edupass audit export`). Only an operator with the auditor
 * duty exports; their own rows are left out (no one reads their own trail); each export is itself an
 * audit row (`audit.export`: which log, the window, how many rows). Nothing here deletes or changes a row.
 * The CSV streams: rows are read a page at a time by id (the primary key), up to the newest row of the
 * window when the export began, so an export holds one page in memory however long the log.
 */
import { Readable } from 'node:stream';
import { dutiesOf } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, invalidRequest } from '../../errors.ts';
import { findUserByPhone } from '../../store/account/users.ts';
import { auditRowsToExport, type ExportFilter, exportExtent, readRowsToExport } from '../../store/admin/admin.ts';
import { audit } from './operations.ts';

export const EXPORT_LOGS = ['audit', 'reads'] as const;
export type ExportLog = (typeof EXPORT_LOGS)[number];

/** At most this many rows an export (a narrower window gives the rest). */
export const EXPORT_MAX_ROWS = 100_000;
/** Rows read by one query of an export. */
export const EXPORT_PAGE_ROWS = 2000;
const DAY = 86_400_000;

/** A CSV field: quoted when it holds a comma, a quote or a line break; a leading =+-@ is made text. */
const field = (value: unknown) => {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const lineOf = (row: readonly unknown[]) => `${row.map(field).join(',')}\r\n`;

const AUDIT_HEADER = ['id', 'at', 'operator_id', 'operator_phone', 'action', 'target', 'detail'];
const READS_HEADER = ['id', 'at', 'reader_id', 'reader_role', 'subject_id', 'fields', 'purpose', 'reason'];

const iso = (ms: number) => new Date(ms).toISOString();

const logOf = (log: string | undefined): ExportLog => {
  if (log !== undefined && (EXPORT_LOGS as readonly string[]).includes(log)) return log as ExportLog;
  throw invalidRequest(`log: one of ${EXPORT_LOGS.join(', ')}`);
};

/** An export begun: its log, its row count, and its CSV as text chunks (the header, then a page each). */
export interface AuditExportStream {
  log: ExportLog;
  rows: number;
  chunks: AsyncIterable<string>;
}

/** A page of the log as CSV lines, with the last id read. */
const csvPage = async (
  ctx: Context,
  log: ExportLog,
  filter: ExportFilter,
  afterId: number,
  upToId: number,
  limit: number,
) => {
  const page = { afterId, upToId, limit };
  if (log === 'audit') {
    const rows = await auditRowsToExport(ctx.db, filter, page);
    const text = rows
      .map((r) => lineOf([r.id, iso(r.at), r.operator_id, r.operator_phone ?? '', r.action, r.target, r.detail]))
      .join('');
    return { text, count: rows.length, lastId: rows.at(-1)?.id };
  }
  const rows = await readRowsToExport(ctx.db, filter, page);
  const text = rows
    .map((r) =>
      lineOf([r.id, iso(r.created_at), r.reader_id, r.reader_role, r.subject_id, r.fields, r.purpose, r.reason]),
    )
    .join('');
  return { text, count: rows.length, lastId: rows.at(-1)?.id };
};

async function* csvChunks(
  ctx: Context,
  log: ExportLog,
  filter: ExportFilter,
  rows: number,
  upToId: number,
  pageRows: number,
) {
  yield lineOf(log === 'audit' ? AUDIT_HEADER : READS_HEADER);
  let afterId = 0;
  let left = rows;
  while (left > 0) {
    const page = await csvPage(ctx, log, filter, afterId, upToId, Math.min(pageRows, left));
    if (page.lastId === undefined) return;
    yield page.text;
    left -= page.count;
    afterId = page.lastId;
  }
}

/**
 * Begins the export: the rows of the window up to its newest row now (at most EXPORT_MAX_ROWS), the
 * export audited in the auditor's name; the CSV is read as `chunks` is.
 */
export const exportAuditLog = async (
  ctx: Context,
  auditorId: number,
  query: { log?: string | undefined; from?: number | undefined; to?: number | undefined },
  pageRows = EXPORT_PAGE_ROWS,
): Promise<AuditExportStream> => {
  const log = logOf(query.log);
  const to = query.to ?? ctx.now();
  const from = query.from ?? to - 366 * DAY;
  if (from > to) throw invalidRequest('from must be before to.');
  const filter: ExportFilter = { from, to, notOperatorId: auditorId };
  const extent = await exportExtent(ctx.db, log, filter);
  const rows = Math.min(extent.rows, EXPORT_MAX_ROWS);
  await audit(ctx, auditorId, 'audit.export', `log:${log}`, `${iso(from)}..${iso(to)} rows=${rows}`);
  return { log, rows, chunks: csvChunks(ctx, log, filter, rows, extent.lastId, pageRows) };
};

/**
 * The export's answer, `{"log","rows","csv"}` as JSON.stringify writes it, streamed: the CSV's chunks
 * escaped as a JSON string's pieces.
 */
export const exportAnswerStream = ({ log, rows, chunks }: AuditExportStream) =>
  Readable.from(
    (async function* () {
      yield `{"log":${JSON.stringify(log)},"rows":${rows},"csv":"`;
      for await (const chunk of chunks) yield JSON.stringify(chunk).slice(1, -1);
      yield '"}';
    })(),
    { objectMode: false },
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

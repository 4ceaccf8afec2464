/**
 * Reading the names a teacher pastes or uploads: one name a line, the first column of a CSV as
 * Excel saves it (UTF-8 with or without BOM, or GBK/GB18030 from Chinese Excel, which cannot be told
 * apart by a header: a file that is not valid UTF-8 is read as GB18030), or the first column of the
 * first sheet of an .xlsx workbook (a ZIP file: it starts with `PK`), unpacked within the limits of
 * every uploaded zip (bounded-zip.ts).
 */
import { PUPIL_BATCH_MAX } from '@edupass/protocol';
import { zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import { invalidRequest } from '../../../errors.ts';
import { isZip, openBoundedZip, type ZipLimits } from '../bounded-zip.ts';

/** A pupil's name as a teacher types it: at most this many characters. */
export const NAME_MAX = 32;

export interface NamePreview {
  names: string[];
  skipped: { line: number; text: string; reason: string }[];
}

/** The text of an uploaded file and how it was read: UTF-8 when it is valid UTF-8, else GB18030 (a superset of GBK). */
export const decodeUploadWithEncoding = (bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'gb18030' } => {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
  }
};

/** The text of an uploaded file (see decodeUploadWithEncoding). */
export const decodeUpload = (bytes: Buffer): string => decodeUploadWithEncoding(bytes).text;

/** The first CSV field of a line (quoted or not). */
const firstField = (line: string) => {
  const trimmed = line.trim();
  if (trimmed.startsWith('"')) {
    const end = trimmed.indexOf('"', 1);
    return end < 0 ? trimmed.slice(1) : trimmed.slice(1, end);
  }
  return trimmed.split(/[,\t，]/)[0] ?? '';
};

const HEADERS = new Set(['姓名', '名字', '学生姓名', 'name', 'names', 'student', 'pupil']);
const CONTROL = /\p{Cc}/u;

/** One line of the upload: its first field (CSV or cell), and the line as shown when it is skipped. */
interface NameRow {
  first: string;
  raw: string;
}

/** Names in order, duplicates and blanks left out and reported, at most `PUPIL_BATCH_MAX` × 10 lines read. */
const readRows = (rows: NameRow[]): NamePreview => {
  const names: string[] = [];
  const skipped: NamePreview['skipped'] = [];
  const seen = new Set<string>();
  rows.forEach(({ first, raw }, index) => {
    const line = index + 1;
    const name = first.replace(/\s+/g, ' ').trim();
    if (name === '') {
      if (raw.trim() !== '') skipped.push({ line, text: raw.slice(0, 64), reason: 'empty' });
      return;
    }
    if (index === 0 && HEADERS.has(name.toLowerCase())) return;
    if ([...name].length > NAME_MAX || CONTROL.test(name)) {
      skipped.push({ line, text: name.slice(0, 64), reason: 'too_long' });
    } else if (seen.has(name)) {
      skipped.push({ line, text: name, reason: 'duplicate' });
    } else if (names.length >= PUPIL_BATCH_MAX * 10) {
      skipped.push({ line, text: name, reason: 'too_many' });
    } else {
      seen.add(name);
      names.push(name);
    }
  });
  return { names, skipped };
};

/** Names from pasted text or a CSV: the first field of each line. */
export const readNames = (text: string): NamePreview =>
  readRows(text.split(/\r\n|\n|\r/).map((raw) => ({ first: firstField(raw), raw })));

const cellText = (cell: unknown) => (cell === null || cell === undefined ? '' : String(cell));

/** The parts of a workbook read-excel-file reads (it passes over the others): XML and relations. */
const isWorkbookPart = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

/**
 * A workbook holds a part and a relations part a sheet besides a few shared ones, so it may have more
 * entries than a roster zip; the number costs nothing, as entries past the directory's checks are only
 * counted. The sizes, the ratio and the total are the roster import's.
 */
const WORKBOOK_ENTRIES_MAX = 1000;

/**
 * Names from the first column of an .xlsx workbook's first sheet; E_1 when it is no workbook, or
 * one that unpacks past the limits (saying which). Its parts are checked from the zip's directory and
 * unpacked within bounds (bounded-zip.ts), then handed to read-excel-file stored as they are: it
 * unpacks nothing that was not checked, whatever the upload's headers claim.
 */
const readWorkbookNames = async (bytes: Buffer, limits: ZipLimits): Promise<NamePreview> => {
  const parts = openBoundedZip(
    bytes,
    { ...limits, eduRosterEntriesMax: Math.max(limits.eduRosterEntriesMax, WORKBOOK_ENTRIES_MAX) },
    { wanted: isWorkbookPart },
  );
  let rows: unknown[][];
  try {
    rows = await readSheet(Buffer.from(zipSync(Object.fromEntries(parts), { level: 0 })));
  } catch {
    throw invalidRequest('The file is neither a CSV file nor an .xlsx workbook that can be read.');
  }
  return readRows(rows.map((row) => ({ first: cellText(row[0]), raw: row.map(cellText).filter(Boolean).join(',') })));
};

/** Names from pasted text or an uploaded file (base64): an .xlsx workbook (unpacked within `limits`) or a CSV file. */
export const previewNames = async (
  input: { text?: string; file_base64?: string },
  limits: ZipLimits,
): Promise<NamePreview> => {
  if (input.text !== undefined) return readNames(input.text);
  if (input.file_base64 !== undefined) {
    const bytes = Buffer.from(input.file_base64, 'base64');
    return isZip(bytes) ? readWorkbookNames(bytes, limits) : readNames(decodeUpload(bytes));
  }
  throw invalidRequest('Send the names as text or as a file.');
};

/** Names of a creation call, checked as the preview checks them. */
export const checkNames = (names: string[]): string[] => {
  if (names.length === 0) throw invalidRequest('Give at least one name.');
  const cleaned = names.map((n) => n.replace(/\s+/g, ' ').trim());
  if (cleaned.some((n) => n === '' || [...n].length > NAME_MAX || CONTROL.test(n))) {
    throw invalidRequest(`Each name must be 1 to ${NAME_MAX} characters.`);
  }
  return cleaned;
};

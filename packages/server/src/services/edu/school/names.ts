/**
 * Reading the names a teacher pastes or uploads: one name a line, the first column of a CSV as
 * Excel saves it (UTF-8 with or without BOM, or GBK/GB18030 from Chinese Excel, which cannot be told
 * apart by a header: a file that is not valid UTF-8 is read as GB18030), or the first column of the
 * first sheet of an .xlsx workbook (a ZIP file: it starts with `PK`), read by workbook.ts within the
 * limits of every uploaded zip.
 */
import { PUPIL_BATCH_MAX } from '@edupass/protocol';
import { invalidRequest } from '../../../errors.ts';
import { isZip, type ZipLimits } from '../bounded-zip.ts';
import { readFirstSheet } from '../workbook.ts';

/** A pupil's name as a teacher types it: at most this many characters. */
export const NAME_MAX = 32;

export interface NamePreview {
  names: string[];
  skipped: { line: number; text: string; reason: string }[];
  /** Blank lines among the names (not those after the last), skipped. */
  blank_lines: number[];
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
  const blank: number[] = [];
  const seen = new Set<string>();
  rows.forEach(({ first, raw }, index) => {
    const line = index + 1;
    const name = first.replace(/\s+/g, ' ').trim();
    if (name === '') {
      if (raw.trim() !== '') skipped.push({ line, text: raw.slice(0, 64), reason: 'empty' });
      else blank.push(line);
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
  const lastLine = rows.findLastIndex(({ raw }) => raw.trim() !== '') + 1;
  return { names, skipped, blank_lines: blank.filter((line) => line < lastLine) };
};

/** Names from pasted text or a CSV: the first field of each line. */
export const readNames = (text: string): NamePreview =>
  readRows(text.split(/\r\n|\n|\r/).map((raw) => ({ first: firstField(raw), raw })));

/**
 * Names from the first column of an .xlsx workbook's first sheet (workbook.ts: opened within the
 * bounds of every uploaded zip); E_1 when it is no workbook, or one that unpacks past the limits.
 */
const readWorkbookNames = async (bytes: Buffer, limits: ZipLimits): Promise<NamePreview> => {
  const rows = await readFirstSheet(bytes, limits);
  return readRows(rows.map((row) => ({ first: row[0] ?? '', raw: row.filter(Boolean).join(',') })));
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

/**
 * An uploaded .xlsx workbook, as Excel, WPS and spreadsheet libraries save it: a zip of XML parts in
 * folders (`[Content_Types].xml`, `docProps/app.xml`, `xl/workbook.xml`, `xl/worksheets/sheet1.xml`,
 * `xl/sharedStrings.xml`…). It is opened within the bounds of every uploaded zip (bounded-zip.ts),
 * with part names that are folder paths and nothing else (no `..`, no absolute or drive path, no
 * backslash), and its first sheet is read by read-excel-file, every cell as text: shared and inline
 * strings as they are, a number as the number's text (a 学号 20260301 stays `20260301`, never
 * `2.0260301E7`), a date as `YYYY-MM-DD`, an empty cell as ''.
 */
import { zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import { invalidRequest } from '../../errors.ts';
import { openBoundedZip, type ZipLimits, zipEntryNames } from './bounded-zip.ts';

/**
 * A workbook holds a part and a relations part a sheet besides a few shared ones, so it may have more
 * entries than a roster zip; the number costs nothing, as entries past the directory's checks are only
 * counted. The sizes, the ratio and the total are the roster import's.
 */
const WORKBOOK_ENTRIES_MAX = 1000;

const workbookLimits = (limits: ZipLimits): ZipLimits => ({
  ...limits,
  eduRosterEntriesMax: Math.max(limits.eduRosterEntriesMax, WORKBOOK_ENTRIES_MAX),
});

/** One folder or file name of a part's path: `xl`, `_rels`, `.rels`, `[Content_Types].xml`, `sheet1.xml`. */
const PART_SEGMENT = /^[\w.[\]][\w.\-[\] ]{0,99}$/;

const checkPartName = (name: string) => {
  const segments = name.split('/');
  if (name.length > 255 || segments.some((s) => !PART_SEGMENT.test(s) || s === '.' || s.includes('..'))) {
    throw invalidRequest(`The zip entry "${name.slice(0, 80)}" is not a plain file name or folder path.`);
  }
};

/** The parts read-excel-file reads (it passes over the others, such as pictures): XML and relations. */
const isWorkbookPart = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

/**
 * Is the zip a workbook (it has the `[Content_Types].xml` of every Office file)? Its directory is
 * checked against the bounds (E_1 naming the one it breaks), its part names too; nothing is inflated.
 */
export const isWorkbook = (bytes: Uint8Array, limits: ZipLimits) =>
  zipEntryNames(bytes, workbookLimits(limits), { checkName: checkPartName }).has('[content_types].xml');

/** A number as text: an integer as written, anything else (`2.0260301E7`, `1.5`) as the number it is. */
const numberText = (raw: string) => {
  if (/^-?\d+$/.test(raw)) return raw;
  const n = Number(raw);
  return Number.isFinite(n) ? String(n) : raw;
};

const cellText = (cell: unknown): string => {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell);
};

/**
 * The rows of the workbook's first sheet, each cell as text (row n of the sheet is `rows[n - 1]`; an
 * empty row is a row of ''); E_1 when it is no workbook that can be read, or one that unpacks past
 * the limits (saying which). Its parts are checked from the zip's directory and unpacked within
 * bounds, then handed to read-excel-file stored as they are: it unpacks nothing that was not checked,
 * whatever the upload's headers claim.
 */
export const readFirstSheet = async (bytes: Uint8Array, limits: ZipLimits): Promise<string[][]> => {
  const parts = openBoundedZip(bytes, workbookLimits(limits), { checkName: checkPartName, wanted: isWorkbookPart });
  try {
    const rows = await readSheet(Buffer.from(zipSync(Object.fromEntries(parts), { level: 0 })), {
      parseNumber: numberText,
    });
    return rows.map((row) => row.map(cellText));
  } catch {
    throw invalidRequest('The file is not an .xlsx workbook that can be read.');
  }
};

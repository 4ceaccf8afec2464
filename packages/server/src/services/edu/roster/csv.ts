/**
 * CSV as RFC 4180 writes it (quoted fields, doubled quotes, line breaks inside quotes; CRLF or LF),
 * with a header row, and a sheet's rows in the same shape. Each record keeps the line it starts on, so
 * a refused row can be pointed at. A blank line (nothing, or only commas and spaces, as Excel saves an
 * empty row) is no record: the ones among the rows are listed, to be reported as skipped.
 */

export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

export interface CsvTable {
  /** Header names, trimmed. */
  header: string[];
  records: CsvRecord[];
  /** Lines of the blank rows between the header and the last record. */
  blank: number[];
}

const isBlank = (record: CsvRecord) => record.fields.every((f) => f.trim() === '');

/** The table of records as read, the first non-blank one its header. */
const tableOf = (all: CsvRecord[]): CsvTable => {
  const first = all.findIndex((r) => !isBlank(r));
  let last = all.length - 1;
  while (last > first && isBlank(all[last] as CsvRecord)) last -= 1;
  const rest = first < 0 ? [] : all.slice(first + 1, last + 1);
  return {
    header: (all[first]?.fields ?? []).map((h) => h.trim()),
    records: rest.filter((r) => !isBlank(r)),
    blank: rest.filter(isBlank).map((r) => r.line),
  };
};

/** A sheet's rows (row n is line n) as a table. */
export const tableOfRows = (rows: string[][]): CsvTable => tableOf(rows.map((fields, i) => ({ line: i + 1, fields })));

/** Records of a CSV text (a byte-order mark is dropped); the first is the header. */
export const parseCsv = (input: string): CsvTable => {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let startLine = 1;
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    field = '';
    records.push({ line: startLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n') line += 1;
        field += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      startLine = line;
    } else field += ch;
    i += 1;
  }
  if (field !== '' || fields.length > 0) endRecord();
  return tableOf(records);
};

/** A record's field by header name ('' when the column is missing or the row is short). */
export const columnReader = (header: string[]) => {
  const index = new Map(header.map((name, i) => [name, i]));
  return (record: CsvRecord, name: string) => {
    const at = index.get(name);
    return at === undefined ? '' : (record.fields[at] ?? '').trim();
  };
};

/**
 * CSV as RFC 4180 writes it (quoted fields, doubled quotes, line breaks inside quotes; CRLF or LF),
 * with a header row. Each record keeps the line it starts on, so a refused row can be pointed at.
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
}

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
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: startLine, fields });
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
  const [head, ...rest] = records;
  return { header: (head?.fields ?? []).map((h) => h.trim()), records: rest };
};

/** A record's field by header name ('' when the column is missing or the row is short). */
export const columnReader = (header: string[]) => {
  const index = new Map(header.map((name, i) => [name, i]));
  return (record: CsvRecord, name: string) => {
    const at = index.get(name);
    return at === undefined ? '' : (record.fields[at] ?? '').trim();
  };
};

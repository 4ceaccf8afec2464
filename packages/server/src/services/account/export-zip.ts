/**
 * The zip of a person's copy of their data, written as it is read (fflate's streaming `Zip`): a JSON
 * file per area, a CSV file where rows read better as a table (written page by page, so 100,000 usage
 * events never sit in memory as objects), and plain files (the picture, the README).
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** One CSV cell: quoted when it holds a comma, a quote or a line break; spreadsheet formulas defused. */
const cell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

const csvLine = (values: unknown[]) => `${values.map(cell).join(',')}\r\n`;

export interface CsvFile {
  /** Appends rows (each with the file's columns). */
  rows(rows: readonly Record<string, unknown>[]): void;
  end(): void;
}

export interface ExportZip {
  json(name: string, value: unknown): void;
  /** A CSV file with these columns; its rows come in pages. */
  csv(name: string, columns: readonly string[]): CsvFile;
  file(name: string, bytes: Uint8Array): void;
  /** Closes the zip; resolves with its bytes. */
  finish(): Promise<Buffer>;
}

export const openExportZip = (): ExportZip => {
  const chunks: Uint8Array[] = [];
  let settle: { resolve: (zip: Buffer) => void; reject: (error: Error) => void } | undefined;
  let failed: Error | undefined;
  let done: Buffer | undefined;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failed = error;
      settle?.reject(error);
      return;
    }
    chunks.push(chunk);
    if (final) {
      done = Buffer.concat(chunks);
      settle?.resolve(done);
    }
  });
  const deflated = (name: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    return entry;
  };
  return {
    json(name, value) {
      deflated(name).push(strToU8(`${JSON.stringify(value, null, 2)}\n`), true);
    },
    csv(name, columns) {
      const entry = deflated(name);
      // A byte-order mark, so spreadsheet programs read the Chinese as UTF-8.
      entry.push(strToU8(`\uFEFF${csvLine([...columns])}`));
      return {
        rows(rows) {
          if (rows.length > 0) entry.push(strToU8(rows.map((row) => csvLine(columns.map((c) => row[c]))).join('')));
        },
        end() {
          entry.push(new Uint8Array(0), true);
        },
      };
    },
    file(name, bytes) {
      // Pictures are compressed already.
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      entry.push(bytes, true);
    },
    finish() {
      zip.end();
      if (failed) return Promise.reject(failed);
      if (done) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        settle = { resolve, reject };
      });
    },
  };
};

/**
 * An uploaded zip (a roster zip, an .xlsx workbook), opened within bounds: the upload's size, the
 * number of entries, each entry's unpacked size and its packing ratio (a zip bomb packs gigabytes of
 * spaces or zeros into kilobytes), and the total unpacked. Each limit is checked from the central
 * directory before anything is inflated; entries are then inflated a slice at a time and refused as
 * soon as one gives more than its directory entry declared, so a lying directory cannot make the
 * server inflate more than the limits allow. The limits are the roster import's (config/roster-config.ts).
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import type { Config } from '../../config/config.ts';
import { ApiError, invalidRequest } from '../../errors.ts';

export type ZipLimits = Pick<
  Config,
  'eduRosterZipMaxBytes' | 'eduRosterEntriesMax' | 'eduRosterEntryMaxBytes' | 'eduRosterRatioMax'
>;

/** What a caller adds to the limits. */
export interface ZipRules {
  /** Throws (E_1) for an entry name the caller refuses; checked before the entry's sizes. */
  checkName?: (name: string) => void;
  /** The entries to inflate (all by default); the others are counted and checked, never inflated. */
  wanted?: (name: string) => boolean;
}

/** A zip file's first bytes. */
export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** The wanted entries by the name the directory gives them; E_1 naming the limit the zip breaks. */
export const openBoundedZip = (bytes: Uint8Array, limits: ZipLimits, rules: ZipRules = {}): Map<string, Uint8Array> => {
  const { listed, declared } = readDirectory(bytes, limits, rules);
  return inflateWithin(bytes, listed, declared);
};

/**
 * The lower-cased names of the zip's file entries, every limit checked from its central directory and
 * nothing inflated: what a caller looks at to tell which kind of zip it was sent.
 */
export const zipEntryNames = (bytes: Uint8Array, limits: ZipLimits, rules: Pick<ZipRules, 'checkName'> = {}) =>
  readDirectory(bytes, limits, { ...rules, wanted: () => false }).listed;

/** A wanted entry as the directory declares it. */
interface Declared {
  name: string;
  size: number;
}

/**
 * The central directory checked, nothing inflated: the lower-cased names of its file entries, and
 * each wanted one's name and declared unpacked size by lower-cased name.
 */
const readDirectory = (bytes: Uint8Array, limits: ZipLimits, rules: ZipRules) => {
  if (bytes.length > limits.eduRosterZipMaxBytes) {
    throw invalidRequest(`The zip is larger than ${limits.eduRosterZipMaxBytes} bytes.`);
  }
  let entries = 0;
  let total = 0;
  const listed = new Set<string>();
  const declared = new Map<string, Declared>();
  try {
    unzipSync(bytes, {
      filter(entry) {
        entries += 1;
        if (entries > limits.eduRosterEntriesMax) {
          throw invalidRequest(`The zip has more than ${limits.eduRosterEntriesMax} entries.`);
        }
        if (entry.name.endsWith('/')) return false; // a folder entry carries nothing
        rules.checkName?.(entry.name);
        if (entry.originalSize > limits.eduRosterEntryMaxBytes) {
          throw invalidRequest(`${entry.name} unpacks to more than ${limits.eduRosterEntryMaxBytes} bytes.`);
        }
        if (entry.originalSize > Math.max(entry.size, 1) * limits.eduRosterRatioMax && entry.originalSize > 4096) {
          throw invalidRequest(`${entry.name} is packed more than ${limits.eduRosterRatioMax} to 1: refused.`);
        }
        total += entry.originalSize;
        if (total > limits.eduRosterEntryMaxBytes * 4) {
          throw invalidRequest(`The zip unpacks to more than ${limits.eduRosterEntryMaxBytes * 4} bytes.`);
        }
        const key = entry.name.toLowerCase();
        if (listed.has(key)) throw invalidRequest(`The zip holds ${entry.name} twice.`);
        listed.add(key);
        if (rules.wanted?.(entry.name) ?? true) declared.set(key, { name: entry.name, size: entry.originalSize });
        return false;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalidRequest('The file is not a zip that can be read.');
  }
  return { listed, declared };
};

/**
 * Inflates the entries the directory declared, 64 KiB of input at a time, stopping as soon as an
 * entry gives more than it declared: a directory that lies about sizes costs no more than the lie.
 */
const inflateWithin = (bytes: Uint8Array, listed: Set<string>, declared: Map<string, Declared>) => {
  const files = new Map<string, Uint8Array>();
  // fflate hands an error thrown in a callback back to the callback and goes on: the first one is kept
  // here and stops the feeding.
  let failure: ApiError | undefined;
  try {
    const unzip = new Unzip((file) => {
      if (file.name.endsWith('/')) return;
      const key = file.name.toLowerCase();
      const entry = declared.get(key);
      if (entry === undefined && listed.has(key)) return; // listed, not wanted: never inflated
      if (entry === undefined || files.has(entry.name)) {
        failure ??= invalidRequest('The zip names its entries differently in its directory and its headers.');
        return;
      }
      const parts: Uint8Array[] = [];
      let got = 0;
      file.ondata = (error, chunk, final) => {
        if (failure) return;
        if (error) {
          failure = invalidRequest('The file is not a zip that can be read.');
          return;
        }
        got += chunk.length;
        if (got > entry.size) {
          failure = invalidRequest(`${file.name} holds more than the ${entry.size} bytes it declares: refused.`);
          file.terminate();
          return;
        }
        parts.push(chunk);
        if (final) files.set(entry.name, Buffer.concat(parts));
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    const step = 64 * 1024;
    for (let at = 0; at < bytes.length && !failure; at += step) {
      unzip.push(bytes.subarray(at, at + step), at + step >= bytes.length);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalidRequest('The file is not a zip that can be read.');
  }
  if (failure) throw failure;
  for (const { name } of declared.values()) {
    if (!files.has(name)) throw invalidRequest('The file is not a zip that can be read.');
  }
  return files;
};

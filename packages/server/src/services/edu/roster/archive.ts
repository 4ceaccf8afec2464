/**
 * A roster zip, opened within bounds: the upload's size, the number of entries, each entry's unpacked
 * size and its packing ratio (a zip bomb packs gigabytes of zeros into kilobytes), and names that are
 * plain file names (no folders, `..`, absolute or drive paths). Each limit is checked from the central
 * directory before anything is inflated; entries are then inflated a slice at a time and refused as
 * soon as one gives more than its directory entry declared, so a lying directory cannot make the
 * server inflate more than the limits allow.
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import type { Config } from '../../../config/config.ts';
import { ApiError, invalidRequest } from '../../../errors.ts';

export type RosterLimits = Pick<
  Config,
  'eduRosterZipMaxBytes' | 'eduRosterEntriesMax' | 'eduRosterEntryMaxBytes' | 'eduRosterRatioMax'
>;

/** A zip file's first bytes. */
export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

const PLAIN_NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

/** The zip's entries by lower-cased name; E_1 naming the limit it breaks. */
export const openRosterZip = (bytes: Uint8Array, limits: RosterLimits): Map<string, Uint8Array> => {
  if (bytes.length > limits.eduRosterZipMaxBytes) {
    throw invalidRequest(`The zip is larger than ${limits.eduRosterZipMaxBytes} bytes.`);
  }
  const declared = readDirectory(bytes, limits);
  return inflateWithin(bytes, declared);
};

/** The central directory checked, nothing inflated: each file entry's declared unpacked size. */
const readDirectory = (bytes: Uint8Array, limits: RosterLimits) => {
  let entries = 0;
  let total = 0;
  const declared = new Map<string, number>();
  try {
    unzipSync(bytes, {
      filter(entry) {
        entries += 1;
        if (entries > limits.eduRosterEntriesMax) {
          throw invalidRequest(`The zip has more than ${limits.eduRosterEntriesMax} entries.`);
        }
        if (entry.name.endsWith('/')) return false; // a folder entry carries nothing
        if (!PLAIN_NAME.test(entry.name) || entry.name.includes('..')) {
          throw invalidRequest(
            `The zip entry "${entry.name.slice(0, 80)}" is not a plain file name at the top of the zip.`,
          );
        }
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
        if (declared.has(entry.name.toLowerCase())) throw invalidRequest(`The zip holds ${entry.name} twice.`);
        declared.set(entry.name.toLowerCase(), entry.originalSize);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalidRequest('The file is not a zip that can be read.');
  }
  return declared;
};

/**
 * Inflates the entries the directory declared, 64 KiB of input at a time, stopping as soon as an
 * entry gives more than it declared: a directory that lies about sizes costs no more than the lie.
 */
const inflateWithin = (bytes: Uint8Array, declared: Map<string, number>) => {
  const files = new Map<string, Uint8Array>();
  // fflate hands an error thrown in a callback back to the callback and goes on: the first one is kept
  // here and stops the feeding.
  let failure: ApiError | undefined;
  try {
    const unzip = new Unzip((file) => {
      const name = file.name.toLowerCase();
      if (file.name.endsWith('/')) return;
      const size = declared.get(name);
      if (size === undefined || files.has(name)) {
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
        if (got > size) {
          failure = invalidRequest(`${file.name} holds more than the ${size} bytes it declares: refused.`);
          file.terminate();
          return;
        }
        parts.push(chunk);
        if (final) files.set(name, Buffer.concat(parts));
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
  for (const name of declared.keys()) {
    if (!files.has(name)) throw invalidRequest('The file is not a zip that can be read.');
  }
  return files;
};

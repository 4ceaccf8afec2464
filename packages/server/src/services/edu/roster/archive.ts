/**
 * A roster zip, opened within the bounds every uploaded zip is held to (../bounded-zip.ts: the
 * upload's size, the number of entries, each entry's unpacked size and packing ratio, the total, all
 * read from the central directory before anything is inflated), and with names that are plain file
 * names (no folders, `..`, absolute or drive paths).
 */
import { invalidRequest } from '../../../errors.ts';
import { openBoundedZip, type ZipLimits } from '../bounded-zip.ts';

const PLAIN_NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

const checkPlainName = (name: string) => {
  if (!PLAIN_NAME.test(name) || name.includes('..')) {
    throw invalidRequest(`The zip entry "${name.slice(0, 80)}" is not a plain file name at the top of the zip.`);
  }
};

/** The zip's entries by lower-cased name; E_1 naming the limit it breaks. */
export const openRosterZip = (bytes: Uint8Array, limits: ZipLimits): Map<string, Uint8Array> =>
  new Map(
    [...openBoundedZip(bytes, limits, { checkName: checkPlainName })].map(([name, data]) => [name.toLowerCase(), data]),
  );

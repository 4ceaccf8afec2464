/**
 * A local durable spool for batches the events database did not take: each batch one file, written
 * to a temporary name, fsync'd, renamed into place and the directory fsync'd — once `add` resolves the
 * batch survives a crash of this process or machine. `ship` sends the files oldest first with the very
 * rows (and ids) they hold and deletes each only after it was accepted, so a batch is never lost and a
 * replay is recognised by its ids.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const SUFFIX = '.batch';

export interface Spool<T> {
  add(batch: T, rows: number): Promise<void>;
  /** Sends spooled batches in order until one fails; answers whether the spool is now empty. */
  ship(send: (batch: T) => Promise<void>): Promise<boolean>;
  /** Batches waiting in the spool (files, those of earlier runs included). */
  batches(): number;
}

const fsyncPath = async (path: string, flags: string) => {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/** A file name that sorts by time of spooling, then by order within the process. */
const fileName = (now: number, sequence: number) =>
  `${String(now).padStart(15, '0')}-${String(sequence).padStart(9, '0')}-${randomBytes(4).toString('hex')}${SUFFIX}`;

interface Stored<T> {
  rows: number;
  batch: T;
}

export const openSpool = <T>(dir: string, now: () => number): Spool<T> => {
  mkdirSync(dir, { recursive: true });
  let sequence = 0;
  const list = () =>
    readdirSync(dir)
      .filter((name) => name.endsWith(SUFFIX))
      .sort();
  let shipping: Promise<boolean> | undefined;

  const readBatch = async (name: string) => {
    const text = await readFile(join(dir, name), 'utf8');
    return JSON.parse(text) as Stored<T>;
  };

  const shipAll = async (send: (batch: T) => Promise<void>) => {
    for (const name of list()) {
      let stored: Stored<T>;
      try {
        stored = await readBatch(name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // shipped by another process
        throw error;
      }
      try {
        await send(stored.batch);
      } catch {
        return false;
      }
      await unlink(join(dir, name)).catch(() => {});
    }
    return true;
  };

  return {
    async add(batch, rows) {
      const name = fileName(now(), sequence++);
      const temporary = join(dir, `${name}.tmp`);
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(JSON.stringify({ rows, batch } satisfies Stored<T>));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, join(dir, name));
      await fsyncPath(dir, 'r');
    },
    ship(send) {
      // One pass at a time: a second caller waits for the pass under way.
      shipping ??= shipAll(send).finally(() => {
        shipping = undefined;
      });
      return shipping;
    },
    batches: () => list().length,
  };
};

/** Deleting (or clearing) rows a statement at a time: a large backlog never holds SQLite's write lock for long. */
import type { DeleteResult, UpdateResult } from 'kysely';

/** Rows one statement of the hourly sweep deletes at most, so a large backlog never holds SQLite's write lock for long. */
export const SWEEP_BATCH = 5_000;

/** Runs `batch` (at most `size` rows each, deleted or cleared) until one comes back short; answers the total. */
export const inBatches = async (size: number, batch: () => Promise<DeleteResult | UpdateResult>): Promise<number> => {
  let total = 0;
  for (;;) {
    const result = await batch();
    const done = Number('numDeletedRows' in result ? result.numDeletedRows : result.numUpdatedRows);
    total += done;
    if (done < size) return total;
  }
};

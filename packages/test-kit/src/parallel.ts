/**
 * Many independent tries in a test, a few at a time: a try that mostly waits (a browser page on a
 * held-back answer, a server's reply) overlaps the others' waiting instead of adding to it.
 */

/**
 * Runs `step(0)` … `step(count - 1)`, at most `limit` at once, each started as soon as one ends. The
 * first failure rejects; no step starts after it (the ones under way finish on their own).
 */
export const eachAtMost = async (count: number, limit: number, step: (index: number) => Promise<void>) => {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < count) {
      const index = next++;
      try {
        await step(index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
};

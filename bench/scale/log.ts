/** The bench's progress lines, each with the seconds since it started. */
const started = Date.now();

export const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);

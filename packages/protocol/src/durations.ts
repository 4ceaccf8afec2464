/** Lengths of time, written once: seconds for lifetimes and cookie ages, milliseconds for clocks and buckets. */
export const HOUR_SECONDS = 3_600;
export const DAY_SECONDS = 24 * HOUR_SECONDS;
export const HOUR_MS = HOUR_SECONDS * 1_000;
export const DAY_MS = DAY_SECONDS * 1_000;

/** Lengths of time, written once: seconds for lifetimes and cookie ages, milliseconds for clocks and buckets. */
export const HOUR_SECONDS = 3_600;
export const DAY_SECONDS = 24 * HOUR_SECONDS;
export const HOUR_MS = HOUR_SECONDS * 1_000;
export const DAY_MS = DAY_SECONDS * 1_000;
/** China Standard Time's offset from UTC (no daylight saving): the calendar the product counts days in. */
export const CHINA_OFFSET_MS = 8 * HOUR_MS;

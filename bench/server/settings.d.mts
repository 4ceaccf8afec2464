// Types of settings.mjs for the TypeScript benches that log as this bench does (bench/district).
/** Prints a line with the seconds since the bench started. */
export declare const log: (line: string) => void;
export declare const started: number;

// Types of setup.mjs for the TypeScript benches that start the server as this bench does (bench/district).
/** Bundles server-entry.ts (and the argon2 probe); answers the directory of `server.mjs`. */
export declare const bundleBench: () => Promise<string>;
/** The server's environment: a fresh SQLite file in `scratch`, limits raised for busy users. */
export declare const serverEnvironment: (scratch: string, logLevel: string) => Record<string, string>;

import type { BuildOptions, BuildResult } from 'esbuild';

export declare const shippedBundle: <O extends BuildOptions>(options: O) => Promise<BuildResult<O & { write: false }>>;
export declare const gzipSize: (bytes: Uint8Array) => number;
export declare const sdkSize: (contents: string, resolveDir: string) => Promise<{ min: number; gzip: number }>;

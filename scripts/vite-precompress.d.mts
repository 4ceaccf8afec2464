import type { Plugin } from 'vite';
export declare const precompressFiles: (files: string[]) => Promise<number>;
export declare const precompress: () => Plugin;

import type { UserConfig } from 'vite';

/** The vite build both page packages share; see vite-pages.mjs. */
export declare const pagesConfig: (page: {
  input: Record<string, string>;
  serverPaths: string[];
  open?: string;
}) => UserConfig;

// The vite build both page packages share (the web client and the operator console): React, the
// EduPass packages from their sources, and a dev server that sends API calls to the EduPass server
// (EDUPASS_API, default http://localhost:8080).
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { SOURCE_CONDITION } from './source-condition.mjs';
import { precompress } from './vite-precompress.mjs';

/**
 * @param {{ input: Record<string, string>, serverPaths: string[], open?: string }} page
 *   the HTML entries, what the dev server proxies to the EduPass server, and the page it opens
 * @returns {import('vite').UserConfig}
 */
export const pagesConfig = ({ input, serverPaths, open }) => {
  const api = process.env.EDUPASS_API ?? 'http://localhost:8080';
  return {
    plugins: [react(), precompress()],
    // The EduPass packages from their sources: no build of theirs needed first.
    resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
    build: {
      outDir: 'dist',
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      rolldownOptions: { input },
    },
    server: {
      ...(open === undefined ? {} : { open }),
      proxy: Object.fromEntries(serverPaths.map((path) => [path, { target: api, changeOrigin: false }])),
    },
  };
};

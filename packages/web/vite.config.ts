/**
 * The web client's build. `npm run dev -w @edupass/web` serves it with hot reload and sends API calls
 * to the EduPass server (EDUPASS_API, default http://localhost:8080). The operator console is its own
 * package (packages/console), built beside this one.
 */

import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { pagesConfig } from '../../scripts/vite-pages.mjs';

const config = pagesConfig({
  input: { main: resolve(import.meta.dirname, 'index.html') },
  // Everything the server answers besides the web client itself.
  serverPaths: ['/tiger', '/captcha', '/dev', '/report', '/monitor', '/docs', '/healthz', '/admin', '/avatars', '/edu'],
});

export default defineConfig({
  ...config,
  build: {
    ...config.build,
    rolldownOptions: {
      ...config.build?.rolldownOptions,
      output: {
        codeSplitting: {
          // Everything the entry imports statically (the app and the first screen, src/router/routes.ts)
          // in the one entry file: one request, instead of a score of small shared chunks each with its
          // headers and its place in the chain. What other screens share stays in their own chunks.
          groups: [{ name: 'main', tags: ['$initial'] }],
        },
      },
    },
  },
});

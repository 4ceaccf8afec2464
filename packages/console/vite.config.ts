/**
 * The operator console's build: one page, `console.html`, served by the EduPass server at
 * `/console.html` beside the web client. `npm run dev -w @edupass/console` serves it with hot reload
 * and sends API calls to the EduPass server (EDUPASS_API, default http://localhost:8080).
 */

import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { pagesConfig } from '../../scripts/vite-pages.mjs';

export default defineConfig(
  pagesConfig({
    input: { console: resolve(import.meta.dirname, 'console.html') },
    // What the console calls on the server.
    serverPaths: ['/tiger', '/admin', '/healthz'],
    open: '/console.html',
  }),
);

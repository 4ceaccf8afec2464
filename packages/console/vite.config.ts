/**
 * The operator console's build: one page, `console.html`, served by the EduPass server at
 * `/console.html` beside the web client. `npm run dev -w @edupass/console` serves it with hot reload
 * and sends API calls to the EduPass server (EDUPASS_API, default http://localhost:8080).
 */

import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITION } from '../../scripts/source-condition.mjs';

const api = process.env.EDUPASS_API ?? 'http://localhost:8080';
/** What the console calls on the server. */
const serverPaths = ['/tiger', '/admin', '/healthz'];

export default defineConfig({
  plugins: [react()],
  // The EduPass packages (the account SDK, the web client's shared pieces) from their sources.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: { input: { console: resolve(import.meta.dirname, 'console.html') } },
  },
  server: {
    open: '/console.html',
    proxy: Object.fromEntries(serverPaths.map((path) => [path, { target: api, changeOrigin: false }])),
  },
});

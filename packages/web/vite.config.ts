/**
 * The web client's build. `npm run dev -w @edupass/web` serves it with hot reload and sends API calls
 * to the EduPass server (EDUPASS_API, default http://localhost:8080).
 */

import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { SOURCE_CONDITION } from '../../scripts/source-condition.mjs';

const api = process.env.EDUPASS_API ?? 'http://localhost:8080';
/** Everything the server answers besides the web client itself. */
const serverPaths = ['/tiger', '/captcha', '/dev', '/report', '/monitor', '/legal', '/docs', '/healthz', '/admin'];

export default defineConfig({
  plugins: [react()],
  // The EduPass packages from their sources: no build of theirs needed first.
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // The operator console is its own package (packages/console), built beside this one.
    rolldownOptions: { input: { main: resolve(import.meta.dirname, 'index.html') } },
  },
  server: { proxy: Object.fromEntries(serverPaths.map((path) => [path, { target: api, changeOrigin: false }])) },
});

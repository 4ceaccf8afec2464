/**
 * How the server is bundled, for `npm start` (scripts/build.mjs), the tests that run it in a child
 * process (test-kit child-server.ts) and the server bench: workspace sources bundled from TypeScript,
 * the server package's npm dependencies left to node_modules, for the oldest Node it starts on.
 */
import { readFileSync } from 'node:fs';
import { ESBUILD_CONDITIONS } from './source-condition.mjs';

const serverPackage = JSON.parse(readFileSync(new URL('../packages/server/package.json', import.meta.url), 'utf8'));

/** esbuild options shared by every server bundle; each caller adds its entry points and output. */
export const SERVER_BUNDLE = {
  bundle: true,
  conditions: ESBUILD_CONDITIONS,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    ...Object.keys(serverPackage.dependencies).filter((name) => !name.startsWith('@edupass/')),
    // pino's pretty printer is loaded by name only when asked for, and is not a dependency.
    'pino-pretty',
  ],
};

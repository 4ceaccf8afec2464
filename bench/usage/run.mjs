/**
 * Bundles the usage benches (they import the server's TypeScript) and runs them:
 *   node bench/usage/run.mjs                  # ingest (SQLite), clickhouse (ingestion), dashboards
 *   node bench/usage/run.mjs ingest|clickhouse|dashboards
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';

const here = import.meta.dirname;
const scripts = { ingest: 'ingest.ts', clickhouse: 'clickhouse-ingest.ts', dashboards: 'dashboards.ts' };
const wanted = process.argv[2];
if (wanted === undefined) {
  // Each in a process of its own (runServerScript exits with its bench's status).
  for (const name of Object.keys(scripts)) {
    const run = spawnSync(process.execPath, [import.meta.filename, name], { stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
} else if (scripts[wanted] === undefined) {
  console.error(`unknown bench "${wanted}": one of ${Object.keys(scripts).join(', ')}`);
  process.exit(2);
} else {
  // The server's test helpers resolve their files from their own directory.
  await runServerScript(join(here, scripts[wanted]), {
    dirname: join(here, '../../packages/test-kit/src'),
    external: ['esbuild', 'autocannon'],
  });
}

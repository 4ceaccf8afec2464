/**
 * Bundles the server (as bench/server does) and scale.ts (it imports the server's TypeScript), and
 * runs it: `node bench/scale/run.mjs [--quick] [--large=N] [--requests=N] [--keep]` (README.md).
 */
import { join } from 'node:path';
import { runServerScript } from '../run-server-script.mjs';
import { bundleBench } from '../server/setup.mjs';

const here = import.meta.dirname;
process.env.SCALE_SERVER_BUNDLE = join(await bundleBench(), 'server.mjs');
await runServerScript(join(here, 'scale.ts'), { dirname: here });

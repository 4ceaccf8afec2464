/**
 * The EduPass server as the bench runs it: started as main.ts starts it (the real `buildApp`, the
 * configuration from the environment, the logger it configures), so with LOG_LEVEL=info every request
 * is logged to stdout, which run.mjs sends to a file as a deployment would. run.mjs bundles this file
 * with esbuild, starts it pinned to one core, and reads its port from the line it writes to fd 3.
 */
import { writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config/config.ts';

const READY_FD = 3;

// BENCH_PASSWORD_HASHING (JSON, an argon2id cost): the bench's second server, whose users' hashes are
// cheap, so a sign-in's own work can be measured without a memory-hard hash on its core.
const cost = process.env.BENCH_PASSWORD_HASHING;
const config = { ...loadConfig(process.env), ...(cost ? { passwordHashing: JSON.parse(cost) } : {}) };
const { app, close } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
const { port } = app.server.address() as AddressInfo;
writeSync(READY_FD, `${JSON.stringify({ ready: true, port })}\n`);

const stop = () => {
  close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

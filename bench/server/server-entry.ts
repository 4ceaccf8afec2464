/**
 * The EduPass server as the bench runs it: the real `buildApp` with the configuration read from the
 * environment, but without request logging (a log line per request would dominate the figures).
 * run.mjs bundles this file with esbuild, starts it pinned to one core, and reads its port from the
 * first line it prints.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/config/config.ts';

const config = loadConfig(process.env);
const { app, close } = await buildApp(config, { logger: false });
await app.listen({ port: config.port, host: config.host });
const { port } = app.server.address() as AddressInfo;
process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);

const stop = () => {
  close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

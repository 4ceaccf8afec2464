import { buildApp } from './app.ts';
import { ConfigError, loadConfigWithWarnings } from './config/config.ts';
import { loadEnvFile } from './env-file.ts';
import { hugePagesWarning } from './services/passwords/huge-pages.ts';

/**
 * Longest a shutdown may take (a proxy's own timeout for a request is usually 60 s). The process
 * managers give 5 s more before SIGKILL: TimeoutStopSec=35 (systemd unit), stop_grace_period: 35s
 * (compose), docs/operators.md; scripts/deploy.test.ts holds the three equal.
 */
export const SHUTDOWN_LIMIT_MS = 30_000;

const start = async () => {
  loadEnvFile();
  const { config, warnings } = loadConfigWithWarnings();
  const { app, drain } = await buildApp(config);
  for (const warning of [...warnings, hugePagesWarning()]) if (warning !== undefined) app.log.warn(warning);
  // SIGTERM: stop accepting, finish the requests under way, write what the ingestion writer holds
  // (acknowledged events are already stored), close the database. Past the limit, leave anyway.
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error({ ms: SHUTDOWN_LIMIT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    try {
      await drain();
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`EduPass is up: ${config.publicUrl} (API docs at ${config.publicUrl}/docs)`);
};

start().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('EduPass could not start:', error);
  }
  process.exit(1);
});

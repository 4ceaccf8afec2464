import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

const start = async () => {
  const config = loadConfig();
  const { app } = await buildApp(config);
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
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

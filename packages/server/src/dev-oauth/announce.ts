/** What the log says at start about the development routes, so that nobody runs them by accident. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';

export const announceDevRoutes = (log: FastifyBaseLogger, config: Config, on: boolean) => {
  if (on && config.devRoutesForAnyone) {
    log.warn(
      { devRoutes: true, host: config.host },
      `DEVELOPMENT ROUTES ARE OPEN TO THE NETWORK (DEV_ROUTES=1 on ${config.host}): anyone who reaches this server, directly or through a proxy, reads every live code at /dev/outbox and signs in through the development WeChat/QQ. Never do this with real users.`,
    );
  } else if (on) {
    log.info(
      { devRoutes: true, host: config.host },
      `development routes on, for requests made on this machine only (not through a proxy): codes at ${config.publicUrl}/dev/outbox?to=<phone or e-mail> and in this log`,
    );
  } else if (!config.production) {
    log.info(
      { devRoutes: false, host: config.host },
      'development routes off (not on loopback; DEV_ROUTES=1 opens them to the network): codes without a provider are printed in this log',
    );
  }
};

/** Everything the operator console adds to the server, registered by app.ts in one line. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { adminCaptchaRoutes } from './admin-captcha.ts';
import { adminMonitorRoutes } from './admin-monitor.ts';
import { adminOauthRoutes } from './admin-oauth.ts';
import { adminRightsRoutes } from './admin-rights.ts';
import { adminSigningKeyRoutes } from './admin-signing-keys.ts';
import { adminUsageRoutes } from './admin-usage.ts';
import { adminWebhookRoutes } from './admin-webhooks.ts';
import { consoleRoutes } from './console.ts';
import { adminEduRoutes } from './edu/admin.ts';

export const consoleAreas = (app: FastifyInstance, ctx: Context) => {
  adminCaptchaRoutes(app, ctx);
  adminEduRoutes(app, ctx);
  adminMonitorRoutes(app, ctx);
  adminOauthRoutes(app, ctx);
  adminRightsRoutes(app, ctx);
  adminSigningKeyRoutes(app, ctx);
  adminWebhookRoutes(app, ctx);
  adminUsageRoutes(app, ctx);
  consoleRoutes(app);
};

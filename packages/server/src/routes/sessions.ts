/** The signed-in devices: the list, ending one, and the password changes that keep this device signed in. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { changePassword, changePasswordByPhone, keeping } from '../services/passwords/changes.ts';
import { endDevice, listDevices } from '../services/sessions/devices.ts';
import { requireStepUp } from '../services/sign-in/step-up.ts';

export const sessionRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'listSessions', ({ session }) => listDevices(ctx, session));
  defineRoute(app, ctx, 'endSession', ({ session, params, client }) => endDevice(ctx, session, params.id, client.ip));
  defineRoute(app, ctx, 'changePasswordKeepingSession', async ({ session, body, client }) => {
    const { end_other_sessions, ...input } = body;
    await changePassword(ctx, session.userId, input, client.ip, keeping(session.sessionId, end_other_sessions));
  });
  defineRoute(app, ctx, 'changePasswordByPhoneKeepingSession', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'changePasswordByPhone', client.ip);
    const { end_other_sessions, ...input } = body;
    await changePasswordByPhone(ctx, session.userId, input, keeping(session.sessionId, end_other_sessions));
  });
};

/** The signed-in user's own account: profile, username, password, phone, privacy, third parties. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { codeSendBy, userCodeSendBy } from '../http/code-send.ts';
import { clearAuthCookie } from '../http/request-info.ts';
import { defineRoute } from '../http/route-kit.ts';
import { uploadAvatar } from '../services/account/avatar.ts';
import { ownExports, requestOwnExport } from '../services/account/data-export.ts';
import { deleteAccount } from '../services/account/deletion.ts';
import { bindEmail } from '../services/account/email.ts';
import { GRADE_LIST } from '../services/account/grades.ts';
import { bindPhone, checkPhoneBind, rebindPhone } from '../services/account/phone.ts';
import { setUsername, updateProfile } from '../services/account/profile.ts';
import { endOtherSessions } from '../services/account/users.ts';
import { privacy, userInfo } from '../services/account/views.ts';
import { verifyCode } from '../services/codes/one-time-codes.ts';
import { listOauths } from '../services/oauth/links.ts';
import {
  changePassword,
  changePasswordByPhone,
  checkEmailResetCode,
  checkResetCode,
  initPassword,
  resetPassword,
} from '../services/passwords/changes.ts';
import { issueTicket } from '../services/security/tickets.ts';
import {
  requireStepUp,
  sendStepUpCode,
  stepUpByCode,
  stepUpByPassword,
  stepUpStatus,
} from '../services/sign-in/step-up.ts';

const COMMON_TICKET_TTL = 10 * 60;

export const accountRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'getProfile', async ({ session }) => userInfo(session.user));
  defineRoute(app, ctx, 'updateProfile', ({ session, body }) => updateProfile(ctx, session.userId, body), {
    strict: true,
  });
  defineRoute(app, ctx, 'uploadAvatar', ({ session, body }) => uploadAvatar(ctx, session.userId, body.image));
  defineRoute(app, ctx, 'getPrivacy', async ({ session }) => privacy(session.user));
  defineRoute(app, ctx, 'getGradeList', async () => GRADE_LIST);
  defineRoute(app, ctx, 'listOauths', ({ session }) => listOauths(ctx, session.userId));
  defineRoute(app, ctx, 'setUsername', ({ session, body }) => setUsername(ctx, session.userId, body.username));

  // Passwords. A change ends every session, this one included: the cookie goes too.
  defineRoute(app, ctx, 'initPassword', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'initPassword', client.ip);
    await initPassword(ctx, session.userId, body.password, body.confirm_password);
  });
  defineRoute(app, ctx, 'changePassword', async ({ session, body, reply, client }) => {
    await changePassword(ctx, session.userId, body, client.ip);
    clearAuthCookie(reply, ctx.config);
  });
  defineRoute(app, ctx, 'sendPasswordUpdateCode', userCodeSendBy(ctx, 'password_update', 'sendPasswordUpdateCode'));
  defineRoute(app, ctx, 'changePasswordByPhone', async ({ session, body, reply, client }) => {
    await requireStepUp(ctx, session, 'changePasswordByPhone', client.ip);
    await changePasswordByPhone(ctx, session.userId, body);
    clearAuthCookie(reply, ctx.config);
  });
  defineRoute(app, ctx, 'sendResetCode', codeSendBy(ctx, 'reset'));
  defineRoute(app, ctx, 'checkResetCode', async ({ body }) => ({
    ticket: await checkResetCode(ctx, body.phone_number, body.captcha),
  }));
  defineRoute(app, ctx, 'sendEmailResetCode', codeSendBy(ctx, 'email_reset'));
  defineRoute(app, ctx, 'checkEmailResetCode', async ({ body }) => ({
    ticket: await checkEmailResetCode(ctx, body.email, body.captcha),
  }));
  defineRoute(app, ctx, 'resetPassword', ({ body }) => resetPassword(ctx, body));

  // Phone
  defineRoute(app, ctx, 'sendBindPhoneCode', userCodeSendBy(ctx, 'bind', 'sendBindPhoneCode'));
  defineRoute(app, ctx, 'bindPhone', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'bindPhone', client.ip);
    await bindPhone(ctx, session.userId, body.phone_number, body.captcha);
  });
  defineRoute(app, ctx, 'checkPhoneBind', ({ session, query }) =>
    checkPhoneBind(ctx, session.userId, query.phone_number),
  );
  defineRoute(app, ctx, 'sendRebindCode', userCodeSendBy(ctx, 'change', 'sendRebindCode'));
  defineRoute(app, ctx, 'rebindPhone', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'rebindPhone', client.ip);
    await rebindPhone(ctx, session.userId, body.phone_number, body.captcha);
  });

  // E-mail: added or changed like a phone, with a code to the new address after step-up.
  defineRoute(app, ctx, 'sendEmailBindCode', userCodeSendBy(ctx, 'email_bind', 'sendEmailBindCode'));
  defineRoute(app, ctx, 'bindEmail', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'bindEmail', client.ip);
    await bindEmail(ctx, session.userId, body.email, body.captcha);
  });

  defineRoute(app, ctx, 'deleteAccount', async ({ session, client, reply }) => {
    await requireStepUp(ctx, session, 'deleteAccount', client.ip);
    await deleteAccount(ctx, session.userId, 'user');
    clearAuthCookie(reply, ctx.config);
  });

  // A copy of my data: asked for after a fresh proof, like every change that cannot be taken back.
  defineRoute(app, ctx, 'requestExport', async ({ session, body, client }) => {
    await requireStepUp(ctx, session, 'requestExport', client.ip);
    return requestOwnExport(ctx, session.userId, body.lang);
  });
  defineRoute(app, ctx, 'listExports', ({ session }) => ownExports(ctx, session.userId));

  // Step-up: the proofs that let the calls above through, and ending the other sessions after a change.
  defineRoute(app, ctx, 'stepUpStatus', ({ session }) => stepUpStatus(ctx, session));
  defineRoute(app, ctx, 'stepUpByPassword', ({ session, body, client }) =>
    stepUpByPassword(ctx, session, body.password, client.ip),
  );
  defineRoute(app, ctx, 'sendStepUpCode', ({ session, body, client, captchaTicket }) =>
    sendStepUpCode(ctx, session, { pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'stepUpByCode', ({ session, body, client }) =>
    stepUpByCode(ctx, session, body.captcha, client.ip),
  );
  // A token lifted from one device must not sign its owner out of every other (endDevice).
  defineRoute(app, ctx, 'endOtherSessions', async ({ session, client }) => {
    await requireStepUp(ctx, session, 'endOtherSessions', client.ip);
    await endOtherSessions(ctx, session);
  });
  defineRoute(app, ctx, 'checkCommonCode', async ({ body }) => {
    await verifyCode(ctx, body.phone_number, 'common', body.captcha);
    return { ticket: await issueTicket(ctx, 'common', body.phone_number, COMMON_TICKET_TTL) };
  });
};

/** The handlers shared by the routes that send a code to the phone number in their body. */
import type { Context } from '../context.ts';
import { currentUser } from '../services/account/users.ts';
import { requestCode } from '../services/codes/requests.ts';
import type { ClientInfo, SignedInSession } from '../services/sessions/tokens.ts';
import { requireStepUp } from '../services/sign-in/step-up.ts';

type Scene = Parameters<typeof requestCode>[1];

interface PhoneCodeInput {
  body: { phone_number: string; pid?: string | undefined; old_phone_number?: string };
  client: ClientInfo;
  captchaTicket: string | undefined;
}

/** Sends the code for `scene` by SMS to `body.phone_number`, for the product `body.pid`. */
export const phoneCodeBy =
  (ctx: Context, scene: Scene) =>
  ({ body, client, captchaTicket }: PhoneCodeInput) =>
    requestCode(ctx, scene, { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket });

/**
 * The same for the signed-in user, who must have proved recently that it is them (step-up, refused
 * as `action`); a rebind also names the number bound now (`old_phone_number`).
 */
export const userPhoneCodeBy =
  (ctx: Context, scene: Scene, action: string) =>
  async ({ session, body, client, captchaTicket }: PhoneCodeInput & { session: SignedInSession }) => {
    await requireStepUp(ctx, session, action, client.ip);
    await requestCode(ctx, scene, {
      target: body.phone_number,
      ...(body.old_phone_number !== undefined && { oldPhone: body.old_phone_number }),
      pid: body.pid,
      ip: client.ip,
      captchaTicket,
      user: await currentUser(ctx, session.userId),
    });
  };

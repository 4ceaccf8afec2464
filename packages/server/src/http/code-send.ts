/**
 * The handlers shared by the routes that send a code to the phone number (by SMS) or the e-mail
 * address (by e-mail) in their body.
 */
import type { Context } from '../context.ts';
import { currentUser } from '../services/account/users.ts';
import { requestCode } from '../services/codes/requests.ts';
import type { ClientInfo, SignedInSession } from '../services/sessions/tokens.ts';
import { requireStepUp } from '../services/sign-in/step-up.ts';

type Scene = Parameters<typeof requestCode>[1];

type CodeBody = ({ phone_number: string; old_phone_number?: string } | { email: string }) & {
  pid?: string | undefined;
};

interface CodeInput {
  body: CodeBody;
  client: ClientInfo;
  captchaTicket: string | undefined;
}

/** Where the body says the code goes, and by which channel. */
const addressOf = (body: CodeBody) =>
  'email' in body
    ? ({ target: body.email, channel: 'email' } as const)
    : ({
        target: body.phone_number,
        channel: 'sms',
        // A rebind also names the number bound now.
        ...(body.old_phone_number !== undefined && { oldPhone: body.old_phone_number }),
      } as const);

/** Sends the code for `scene` to the body's phone or e-mail, for the product `body.pid`. */
export const codeSendBy =
  (ctx: Context, scene: Scene) =>
  ({ body, client, captchaTicket }: CodeInput) => {
    const { channel, ...address } = addressOf(body);
    return requestCode(ctx, scene, { ...address, pid: body.pid, ip: client.ip, captchaTicket }, channel);
  };

/**
 * The same for the signed-in user, who must have proved recently that it is them (step-up, refused
 * as `action`).
 */
export const userCodeSendBy =
  (ctx: Context, scene: Scene, action: string) =>
  async ({ session, body, client, captchaTicket }: CodeInput & { session: SignedInSession }) => {
    await requireStepUp(ctx, session, action, client.ip);
    const { channel, ...address } = addressOf(body);
    const user = await currentUser(ctx, session.userId);
    await requestCode(ctx, scene, { ...address, pid: body.pid, ip: client.ip, captchaTicket, user }, channel);
  };

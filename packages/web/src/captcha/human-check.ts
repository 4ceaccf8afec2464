/**
 * Human verification where the server asks for it. Calls go out without a captcha first; when the
 * server answers GCAP_1 (verify first), the captcha flow runs in its overlay and the call is repeated
 * with the ticket. The captcha SDK is its own chunk, loaded only then.
 */
import type { CaptchaProof } from '@edupass/account';
import type { Captcha } from '@edupass/captcha';
import { PRODUCT } from '../session/account.ts';

let captcha: Promise<Captcha> | undefined;

const loadCaptcha = (): Promise<Captcha> => {
  captcha ??= import('@edupass/captcha').then(
    ({ createCaptcha }) => createCaptcha({ pid: PRODUCT.pid, productCode: PRODUCT.product_code, platform: 'web' }),
    (error: unknown) => {
      captcha = undefined;
      throw error;
    },
  );
  return captcha;
};

/** Whether a failed call asks for human verification. */
export const asksForCaptcha = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { serverCode?: unknown }).serverCode === 'GCAP_1';

/** Whether the captcha service itself is missing (an older server), so calls proceed without a ticket. */
const serviceMissing = (error: unknown): boolean => (error as { status?: unknown }).status === 404;

/**
 * Runs the captcha flow for `identity` doing `scene` (the server binds the ticket to both).
 * Resolves with undefined when this server has no captcha service.
 * @throws CaptchaError when the check fails or the visitor closes it.
 */
export const verifyHuman = async (scene: string, identity: string): Promise<CaptchaProof | undefined> => {
  try {
    const { ticket, appid } = await (await loadCaptcha()).verify({ scene, identity });
    return { ticket, appid };
  } catch (error) {
    if (serviceMissing(error)) return undefined;
    throw error;
  }
};

/** Calls `send`; if the server asks for verification, verifies and calls it again with the proof. */
export const withCaptcha = async <T>(
  scene: string,
  identity: string,
  send: (proof?: CaptchaProof) => Promise<T>,
): Promise<T> => {
  try {
    return await send();
  } catch (error) {
    if (!asksForCaptcha(error)) throw error;
    return send(await verifyHuman(scene, identity));
  }
};

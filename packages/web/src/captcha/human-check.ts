/**
 * Human verification before the calls the server guards (code sends, login/security). The rule
 * service decides: usually a ticket at once (no widget), a puzzle in the overlay when the attempt looks
 * risky (recent failures, volume). The captcha SDK is its own chunk, loaded on the first guarded call.
 */
import type { CaptchaProof } from '@edupass/account';
import type { Captcha } from '@edupass/captcha';
import { currentI18n } from '../i18n/i18n.ts';
import { loadChunk } from '../router/chunks.ts';
import { PRODUCT } from '../session/account.ts';

/** The captcha SDK's chunk number, for 'Loading chunk N failed' (the routes use 1–12, the agreement sheet 13). */
const CAPTCHA_CHUNK = 14;

let captcha: Promise<Captcha> | undefined;
let failed: { attempt: number; error: unknown } | undefined;

const loadCaptcha = (): Promise<Captcha> => {
  captcha ??= loadChunk(CAPTCHA_CHUNK, () => import('@edupass/captcha'), failed?.attempt, failed?.error).then(
    ({ createCaptcha }) => createCaptcha({ pid: PRODUCT.pid, productCode: PRODUCT.product_code, platform: 'web' }),
    (error: unknown) => {
      // A retry fetches the chunk afresh (chunks.ts): the browser remembers a failed import.
      captcha = undefined;
      failed = { attempt: (failed?.attempt ?? 0) + 1, error };
      throw error;
    },
  );
  return captcha;
};

/** Starts loading the captcha chunk ahead of a guarded call (e.g. when a form gets focus). */
export const prepareCaptcha = (): void => {
  void loadCaptcha().catch(() => undefined);
};

/** Whether a failed call says its captcha ticket was missing, used or wrong. */
export const asksForCaptcha = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { serverCode?: unknown }).serverCode === 'GCAP_1';

/** The captcha service itself is missing (a server without it): calls go on without a ticket. */
const serviceMissing = (error: unknown): boolean => (error as { status?: unknown }).status === 404;

/**
 * Runs the captcha flow for `identity` doing `scene` (the server binds the ticket to both).
 * Resolves with undefined when this server has no captcha service.
 * @throws CaptchaError when the check fails or the visitor closes the overlay.
 */
export const verifyHuman = async (scene: string, identity: string): Promise<CaptchaProof | undefined> => {
  try {
    // The language at the time of the call: the visitor may have switched since the SDK loaded.
    const { ticket, appid } = await (await loadCaptcha()).verify({ scene, identity, locale: currentI18n().locale });
    return appid ? { ticket, appid } : { ticket };
  } catch (error) {
    if (serviceMissing(error)) return undefined;
    throw error;
  }
};

/** Verifies, then calls `send` with the proof; a refused ticket (expired, used) gets one fresh try. */
export const withCaptcha = async <T>(
  scene: string,
  identity: string,
  send: (proof?: CaptchaProof) => Promise<T>,
): Promise<T> => {
  try {
    return await send(await verifyHuman(scene, identity));
  } catch (error) {
    if (!asksForCaptcha(error)) throw error;
    return send(await verifyHuman(scene, identity));
  }
};

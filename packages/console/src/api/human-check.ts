/**
 * The operator's password sign-in goes through the same captcha flow as the web client's: the rule
 * service hands out a ticket at once for an ordinary attempt and puts up EduPass's slide puzzle (or the
 * product's vendor) for a risky one, or for every one under the policy "always". So no captcha policy
 * the console offers can lock operators out of it. The captcha SDK is its own chunk, loaded on the
 * first sign-in.
 */
import type { CaptchaProof } from '@edupass/account';
import type { Captcha } from '@edupass/captcha';
import type { ConsoleLocale } from '../i18n/i18n.ts';
import { CONSOLE_PRODUCT } from './session.ts';

let captcha: Promise<Captcha> | undefined;

const loadCaptcha = (): Promise<Captcha> => {
  captcha ??= import('@edupass/captcha').then(
    ({ createCaptcha }) =>
      createCaptcha({ pid: CONSOLE_PRODUCT.pid, productCode: CONSOLE_PRODUCT.product_code, platform: 'web' }),
    (error: unknown) => {
      captcha = undefined;
      throw error;
    },
  );
  return captcha;
};

/** Whether a failed call says its captcha ticket was missing, used or wrong. */
const asksForCaptcha = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { serverCode?: unknown }).serverCode === 'GCAP_1';

/** The captcha service itself is missing (a server without it): the plain sign-in is all there is. */
const serviceMissing = (error: unknown): boolean => (error as { status?: unknown }).status === 404;

const verifyHuman = async (identity: string, locale: ConsoleLocale): Promise<CaptchaProof | undefined> => {
  try {
    const { ticket, appid } = await (await loadCaptcha()).verify({ scene: 'login', identity, locale });
    return appid ? { ticket, appid } : { ticket };
  } catch (error) {
    if (serviceMissing(error)) return undefined;
    throw error;
  }
};

/** Verifies, then signs in with the proof; a refused ticket (expired, used) gets one fresh try. */
export const withLoginCaptcha = async <T>(
  identity: string,
  locale: ConsoleLocale,
  send: (proof?: CaptchaProof) => Promise<T>,
): Promise<T> => {
  try {
    return await send(await verifyHuman(identity, locale));
  } catch (error) {
    if (!asksForCaptcha(error)) throw error;
    return send(await verifyHuman(identity, locale));
  }
};

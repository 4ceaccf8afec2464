/**
 * Vendor exchanges (spec §7): a vendor's result in, our ticket out. The vendor's verify API decides;
 * a refusal counts toward the caller's risk and answers 10017003 (Tencent) or 10017004 (the others),
 * an unknown appid 10017001, an unconfigured vendor 10017002. Fallback results — Geetest offline
 * mode, Tencent terror_ tickets, a vendor that cannot be reached — pass only when configured to.
 */
import { CAPTCHA_MESSAGES, type CaptchaTicketResponse, type GeetestParams } from '@edupass/protocol';
import { aliyunVerify } from '../../adapters/captcha-vendors/aliyun.ts';
import { geetestOfflineValidate, geetestRegister, geetestValidate } from '../../adapters/captcha-vendors/geetest.ts';
import { VendorUnreachable, type Verdict } from '../../adapters/captcha-vendors/http.ts';
import { neteaseVerify } from '../../adapters/captcha-vendors/netease.ts';
import { nextdataVerify } from '../../adapters/captcha-vendors/nextdata.ts';
import { isTencentFallbackTicket, tencentVerify } from '../../adapters/captcha-vendors/tencent.ts';
import type { VendorName } from '../../config/captcha-config.ts';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { recordCaptchaFailure } from './risk.ts';
import { issueCaptchaTicket, normalizeIdentity, normalizeScene } from './tickets.ts';
import { appidOf, vendorSettings } from './vendor-keys.ts';

const refusalCode = (vendor: VendorName) => (vendor === 'TENCENT' ? '10017003' : '10017004');
const VENDOR_LABEL: Record<VendorName, string> = {
  GEETEST: 'Geetest',
  TENCENT: 'Tencent',
  NETEASE: 'NetEase',
  NEXTDATA: 'NextData',
  ALIYUN: 'Aliyun',
};

export interface ExchangeCaller {
  ip: string;
  scene?: string | undefined;
  identity?: string | undefined;
}

/** The vendor's settings in effect (console over environment), when complete and the appid is its own. */
const configured = async <V extends VendorName>(ctx: Context, vendor: V, appid: string) => {
  const settings = await vendorSettings(ctx, vendor);
  if (settings === undefined) return fail('10017002', `${VENDOR_LABEL[vendor]} captcha is not configured.`);
  if (appid !== appidOf(vendor, settings)) return fail('10017001');
  return settings;
};

/** Asks the vendor; an unreachable vendor passes only when fallback results are allowed. */
const ask = async (ctx: Context, vendor: VendorName, verify: () => Promise<Verdict>): Promise<Verdict> => {
  try {
    return await verify();
  } catch (error) {
    if (!(error instanceof VendorUnreachable)) throw error;
    ctx.logger.warn({ err: error, vendor }, 'captcha vendor unreachable');
    return ctx.config.captcha.allowVendorFallback ? { pass: true } : { pass: false, reason: 'vendor unreachable' };
  }
};

const settle = async (
  ctx: Context,
  vendor: VendorName,
  verdict: Verdict,
  caller: ExchangeCaller,
): Promise<CaptchaTicketResponse> => {
  const scene = normalizeScene(caller.scene);
  const identity = normalizeIdentity(caller.identity);
  if (!verdict.pass) {
    ctx.logger.info({ vendor, reason: verdict.reason }, 'captcha vendor refused');
    await recordCaptchaFailure(ctx, { identity, ip: caller.ip, deviceId: '' }, `${vendor}: ${verdict.reason}`);
    return fail(refusalCode(vendor), `${CAPTCHA_MESSAGES.rejected} (${VENDOR_LABEL[vendor]})`);
  }
  return { ticket: await issueCaptchaTicket(ctx, { scene, identity }, vendor) };
};

const offlineKey = (challenge: string) => `geetest-offline:${challenge}`;

export const startGeetest = async (ctx: Context, appid: string, ip: string): Promise<GeetestParams> => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'GEETEST', appid);
  const start = await geetestRegister(settings, ip, c.vendorTimeoutMs);
  // Remember which challenges were handed out in offline mode: their results are checked locally.
  if (start.success === 0) await ctx.counters.hit(offlineKey(start.challenge), c.challengeTtlSeconds * 5);
  return start;
};

export const exchangeGeetest = async (
  ctx: Context,
  body: { geetest_challenge: string; geetest_validate: string; geetest_seccode: string; appid: string },
  caller: ExchangeCaller,
) => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'GEETEST', body.appid);
  const result = { challenge: body.geetest_challenge, validate: body.geetest_validate, seccode: body.geetest_seccode };
  const offline = (await ctx.counters.peek(offlineKey(result.challenge))) > 0;
  const verdict: Verdict = offline
    ? c.allowVendorFallback
      ? geetestOfflineValidate(result)
      : { pass: false, reason: 'offline mode results are not accepted' }
    : await ask(ctx, 'GEETEST', () => geetestValidate(settings, result, caller.ip, c.vendorTimeoutMs));
  return settle(ctx, 'GEETEST', verdict, caller);
};

export const exchangeTencent = async (
  ctx: Context,
  body: { appid: string; tencentTicket: string; randomStr: string },
  caller: ExchangeCaller,
) => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'TENCENT', body.appid);
  // terror_ tickets come from the page when TCaptcha.js failed; Tencent cannot verify them.
  const verdict: Verdict = isTencentFallbackTicket(body.tencentTicket)
    ? c.allowVendorFallback
      ? { pass: true }
      : { pass: false, reason: 'fallback ticket' }
    : await ask(ctx, 'TENCENT', () =>
        tencentVerify(
          settings,
          { ticket: body.tencentTicket, randstr: body.randomStr },
          caller.ip,
          c.vendorTimeoutMs,
          ctx.now(),
        ),
      );
  return settle(ctx, 'TENCENT', verdict, caller);
};

export const exchangeNetease = async (
  ctx: Context,
  body: { validate: string; appid: string },
  caller: ExchangeCaller,
) => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'NETEASE', body.appid);
  const verdict = await ask(ctx, 'NETEASE', () => neteaseVerify(settings, body.validate, c.vendorTimeoutMs, ctx.now()));
  return settle(ctx, 'NETEASE', verdict, caller);
};

export const exchangeNextdata = async (ctx: Context, body: { rid: string; appid: string }, caller: ExchangeCaller) => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'NEXTDATA', body.appid);
  const verdict = await ask(ctx, 'NEXTDATA', () => nextdataVerify(settings, body.rid, c.vendorTimeoutMs));
  return settle(ctx, 'NEXTDATA', verdict, caller);
};

export const exchangeAliyun = async (
  ctx: Context,
  body: { appKey: string; captchaVerifyParam: string },
  caller: ExchangeCaller,
): Promise<CaptchaTicketResponse> => {
  const c = ctx.config.captcha;
  const settings = await configured(ctx, 'ALIYUN', body.appKey);
  const verdict = await ask(ctx, 'ALIYUN', () =>
    aliyunVerify(settings, body.captchaVerifyParam, c.vendorTimeoutMs, ctx.now()),
  );
  const { ticket } = await settle(ctx, 'ALIYUN', verdict, caller);
  return { ticket, appid: settings.prefix };
};

/**
 * The risk signals of the rule service: recent failed checks by identity, device and IP, and the
 * volume of code sends and rule requests. All live in the shared counters, so every process agrees.
 */
import type { Context } from '../context.ts';
import { findUserByIdentity } from '../store/users.ts';
import { loginFailureCount, loginLockKey } from './rate-limits.ts';

export interface Caller {
  identity: string;
  ip: string;
  deviceId: string;
}

const failureKeys = ({ identity, ip, deviceId }: Caller) => ({
  identity: identity === '' ? undefined : `captcha-fail:id:${identity.toLowerCase()}`,
  device: deviceId === '' ? undefined : `captcha-fail:dev:${deviceId}`,
  ip: `captcha-fail:ip:${ip}`,
});

/** A failed challenge or vendor check counts against the identity, device and IP behind it. */
export const recordCaptchaFailure = async (ctx: Context, caller: Caller): Promise<void> => {
  const window = ctx.config.captcha.riskWindowSeconds;
  for (const key of Object.values(failureKeys(caller))) if (key !== undefined) await ctx.counters.hit(key, window);
};

/** Counts a rule request for the identity; many in a short while is what scripted abuse looks like. */
export const countRuleRequest = (ctx: Context, identity: string) =>
  identity === ''
    ? Promise.resolve(0)
    : ctx.counters.hit(`captcha-rule:${identity.toLowerCase()}`, ctx.config.captcha.riskWindowSeconds);

export interface RiskVerdict {
  risky: boolean;
  /** What tipped it, for logs and tests. */
  reasons: string[];
}

export const assessRisk = async (ctx: Context, caller: Caller, ruleRequests: number): Promise<RiskVerdict> => {
  const c = ctx.config.captcha;
  const keys = failureKeys(caller);
  const reasons: string[] = [];
  const peek = (key: string | undefined) => (key === undefined ? Promise.resolve(0) : ctx.counters.peek(key));
  if ((await peek(keys.identity)) >= c.riskFailures) reasons.push('identity-failures');
  if ((await peek(keys.device)) >= c.riskFailures) reasons.push('device-failures');
  if ((await peek(keys.ip)) >= c.riskIpFailures) reasons.push('ip-failures');
  if (caller.identity !== '') {
    const user = await findUserByIdentity(ctx.db, caller.identity);
    if ((await loginFailureCount(ctx, loginLockKey(user, caller.identity))) > 0) reasons.push('login-failures');
  }
  // Counter key of services/rate-limits.ts: code sends per IP.
  if ((await ctx.counters.peek(`code-ip:${caller.ip}`)) >= c.riskIpSends) reasons.push('send-volume');
  if (ruleRequests > c.riskRuleRequests) reasons.push('rule-volume');
  return { risky: reasons.length > 0, reasons };
};

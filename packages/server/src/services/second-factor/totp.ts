/**
 * Authenticator-app codes (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps) through `otpauth`. A code
 * of the step before or after the server's also passes (phone clocks drift); each step is accepted at
 * most once per user (replay), recorded atomically in the store.
 */
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findTotp, putPendingTotp, useTotpStep } from '../../store/account/second-factor.ts';
import { seal, unseal } from '../security/sealed-values.ts';

const PERIOD = 30;
const ISSUER = 'EduPass';

const sealName = (userId: number) => `totp:${userId}`;

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

export interface TotpSetup {
  /** Base32 key for typing into the app by hand. */
  secret: string;
  /** The `otpauth://` URI the QR code holds. */
  uri: string;
  /** The QR code as an SVG document. */
  qr_svg: string;
}

/** A new secret, unconfirmed until a code from the app proves it; a confirmed one must be removed first. */
export const startTotpSetup = async (ctx: Context, userId: number, label: string): Promise<TotpSetup> => {
  const secret = new Secret({ size: 20 }).base32;
  const stored = await putPendingTotp(ctx.db, userId, seal(ctx.keys.sealing, secret, sealName(userId)), ctx.now());
  if (!stored) fail('E_1', 'An authenticator app is already set up; remove it first.');
  const uri = totpOf(secret, label).toString();
  return { secret, uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
};

/** The time step a code belongs to, when it is one of the secret's codes within ±1 step of now. */
const stepOf = (secret: string, code: string, now: number): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
};

/**
 * Whether `code` is a fresh code of the user's secret: confirmed secrets for a sign-in or step-up,
 * the pending one when `confirming`. A right code of an already used step is refused (replay).
 */
export const checkTotpCode = async (ctx: Context, userId: number, code: string, confirming = false) => {
  const row = await findTotp(ctx.db, userId);
  if (!row || (row.confirmed_at === null) !== confirming) return false;
  const secret = unseal(ctx.keys.sealing, row.secret_sealed, sealName(userId));
  if (secret === undefined) return false;
  const now = ctx.now();
  const step = stepOf(secret, code, now);
  if (step === undefined) return false;
  return useTotpStep(ctx.db, userId, step, confirming ? now : undefined);
};

export const hasConfirmedTotp = async (ctx: Context, userId: number) =>
  (await findTotp(ctx.db, userId))?.confirmed_at != null;

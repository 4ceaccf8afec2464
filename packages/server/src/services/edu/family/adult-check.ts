/**
 * The optional adult check of a guardian (REALNAME_PROVIDER): before consenting, the guardian gives
 * their name and mainland ID number; the real-name vendor says whether they match its register, and
 * the number's birth date says whether its holder is 18 or older. Kept: the result, the vendor, its
 * request id and the time — never the name or the number (not in the database, not in the logs, not
 * in an error). A person has ADULT_CHECKS_A_DAY tries a day: each costs the operator a vendor call,
 * and unlimited tries would make this a way to learn whose number goes with which name.
 */
import type { AdultCheckResult } from '@edupass/protocol';
import { DAY_SECONDS } from '@edupass/protocol';
import { RealnameUnavailableError, realnameCheck, validIdNumber } from '../../../adapters/realname.ts';
import type { Context } from '../../../context.ts';
import { invalidRequest, RetryLater } from '../../../errors.ts';
import { insertAdultCheck, lastAdultCheck } from '../../../store/edu/family/guardian-checks.ts';
import { lockedError } from '../../security/rate-limits.ts';

export const ADULT_CHECKS_A_DAY = 5;
const NAME_MAX = 40;

/** The caller's state: `off` (the operator has no vendor), `passed` (their last check found an adult), `needed`. */
export const adultCheckState = async (ctx: Context, userId: number) => {
  const last = await lastAdultCheck(ctx.db, userId);
  const state = !ctx.config.realname ? 'off' : last?.result === 'adult' ? 'passed' : 'needed';
  return {
    state,
    result: (last?.result ?? null) as AdultCheckResult | null,
    checked_at: last ? Number(last.created_at) : null,
  } as const;
};

/** The passed check a consent rests on, when the operator asks for one; E_1 when it is missing. */
export const requiredAdultCheck = async (ctx: Context, guardianId: number) => {
  if (!ctx.config.realname) return undefined;
  const last = await lastAdultCheck(ctx.db, guardianId);
  if (last?.result !== 'adult')
    throw invalidRequest('Confirm that you are an adult (the name and ID number check) before consenting.');
  return last;
};

/** Whole years from the number's birth date (digits 7 to 14) to `now`; NaN for a date that does not exist. */
const ageOfIdNumber = (idNumber: string, now: number) => {
  const [year, month, day] = [idNumber.slice(6, 10), idNumber.slice(10, 12), idNumber.slice(12, 14)].map(Number) as [
    number,
    number,
    number,
  ];
  const born = new Date(Date.UTC(year, month - 1, day));
  if (born.getUTCMonth() !== month - 1 || born.getUTCDate() !== day || born.getTime() > now) return Number.NaN;
  const today = new Date(now);
  const beforeBirthday =
    today.getUTCMonth() < month - 1 || (today.getUTCMonth() === month - 1 && today.getUTCDate() < day);
  return today.getUTCFullYear() - year - (beforeBirthday ? 1 : 0);
};

/** Checks the input's shape without repeating it in the message (it is personal information). */
const parsed = (input: { name: string; id_number: string }, now: number) => {
  const name = input.name.normalize('NFC').trim();
  const idNumber = input.id_number.replace(/\s+/g, '').toUpperCase();
  // Letters, the middle dot of minority and foreign names, and spaces; no digits or controls.
  if (name.length === 0 || name.length > NAME_MAX || !/^[\p{L}\p{M}·•. ]+$/u.test(name)) {
    throw invalidRequest(`The name must be the one on the ID card (1 to ${NAME_MAX} letters).`);
  }
  if (!validIdNumber(idNumber)) throw invalidRequest('The ID number is not a valid 18-character mainland ID number.');
  const age = ageOfIdNumber(idNumber, now);
  if (Number.isNaN(age)) throw invalidRequest('The ID number is not a valid 18-character mainland ID number.');
  return { name, idNumber, age };
};

export const checkAdult = async (ctx: Context, userId: number, input: { name: string; id_number: string }) => {
  const config = ctx.config.realname;
  if (!config) throw invalidRequest('The adult check is not turned on.');
  const { name, idNumber, age } = parsed(input, ctx.now());
  const key = `adult-check:user:${userId}`;
  if ((await ctx.counters.hit(key, DAY_SECONDS)) > ADULT_CHECKS_A_DAY) throw lockedError(await ctx.counters.ttl(key));
  let result: AdultCheckResult;
  let requestId: string | null = null;
  if (age < 18) {
    // The number itself shows a minor: no vendor call needed to refuse.
    result = 'minor';
  } else {
    try {
      const verdict = await realnameCheck(config)(name, idNumber);
      requestId = verdict.requestId;
      result = verdict.match === 'match' ? 'adult' : verdict.match;
    } catch (error) {
      if (!(error instanceof RealnameUnavailableError)) throw error;
      // The vendor's code and request id only: its message may quote what was sent.
      ctx.logger.warn(
        { vendor: error.vendor, code: error.vendorCode, request_id: error.requestId ?? null },
        'adult check: the real-name vendor gave no verdict',
      );
      // No verdict, no try spent: the guardian's few tries a day are for answers.
      await ctx.counters.release(key);
      throw new RetryLater(60, 'The adult check is unavailable now. Try again later.');
    }
  }
  await insertAdultCheck(ctx.db, {
    user_id: userId,
    vendor: config.provider,
    result,
    request_id: requestId,
    created_at: ctx.now(),
  });
  return adultCheckState(ctx, userId);
};

/**
 * Minor mode, carried to every product (the `minor` scope, `GET /edu/me/minor` and the
 * `minor.settings.changed` webhook): a person under 18 gets a daily limit and a curfew. The defaults
 * are the operator's (config/minor-mode-config.ts: the 2024 guide's 40 / 60 / 120 minutes and
 * 22:00–06:00 unless changed); a linked guardian may only make them stricter for their child — fewer
 * minutes, a curfew that covers the operator's. Loosening them is the operator's decision, made for
 * every child at once. Where the operator later tightens a default below a guardian's value, the
 * stricter of the two applies.
 */
import type { AgeBand, MinorMode } from '@edupass/protocol';
import type { Config } from '../../../config/config.ts';
import { isCurfew } from '../../../config/minor-mode-config.ts';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { hasGuardianRow } from '../../../store/edu/family/guardians.ts';
import { findMinorSettings, saveMinorSettings } from '../../../store/edu/family/minor-settings.ts';
import type { User } from '../../../store/schema.ts';
import { inTransaction, recordEvent } from '../../webhooks/events.ts';
import { requireGuardianOf } from '../access.ts';
import { currentBand } from './age.ts';

export interface MinorLimits {
  daily_limit_minutes: number | null;
  curfew: string | null;
}

const NO_LIMITS: MinorLimits = { daily_limit_minutes: null, curfew: null };

/** The operator's limits for a band: none for an adult or an unknown age. */
export const defaultLimits = (
  config: Pick<Config, 'eduMinorDailyMinutes' | 'eduMinorCurfew'>,
  band: AgeBand | null,
) => {
  const minutes = config.eduMinorDailyMinutes;
  const daily =
    band === 'under_8'
      ? minutes.under_8
      : band === '8_13' || band === '14_15'
        ? minutes['8_15']
        : band === '16_17'
          ? minutes['16_17']
          : null;
  return daily === null ? NO_LIMITS : { daily_limit_minutes: daily, curfew: config.eduMinorCurfew };
};

const DAY_MINUTES = 24 * 60;
const spanOf = (curfew: string) => {
  const [start = 0, end = 0] = curfew.split('-').map((hm) => {
    const [h, m] = hm.split(':').map(Number);
    return (h ?? 0) * 60 + (m ?? 0);
  });
  return { start, length: (end - start + DAY_MINUTES) % DAY_MINUTES };
};

/** Whether the curfew `outer` covers every minute of `inner` (both may cross midnight). */
export const curfewCovers = (outer: string, inner: string) => {
  const o = spanOf(outer);
  const i = spanOf(inner);
  return ((i.start - o.start + DAY_MINUTES) % DAY_MINUTES) + i.length <= o.length;
};

/** The limits in force: the guardian's where set and still stricter than the operator's, else the operator's. */
const limitsInForce = (defaults: MinorLimits, set: MinorLimits | undefined): MinorLimits => {
  if (defaults.daily_limit_minutes === null || defaults.curfew === null || !set) return defaults;
  return {
    daily_limit_minutes: Math.min(defaults.daily_limit_minutes, set.daily_limit_minutes ?? DAY_MINUTES),
    curfew: set.curfew !== null && curfewCovers(set.curfew, defaults.curfew) ? set.curfew : defaults.curfew,
  };
};

/** What products are told of the user's minor mode (the `minor` scope's claims). */
export const minorModeOf = async (ctx: Pick<Context, 'db' | 'config' | 'now'>, user: User): Promise<MinorMode> => {
  const band = currentBand(user, ctx.now());
  const [settings, linked] = await Promise.all([findMinorSettings(ctx.db, user.id), hasGuardianRow(ctx.db, user.id)]);
  const defaults = defaultLimits(ctx.config, band);
  return {
    age_band: band,
    minor_mode: defaults.daily_limit_minutes !== null,
    ...limitsInForce(defaults, settings),
    guardian_linked: linked,
    consent: user.consent_state,
  };
};

export const ownMinorMode = async (ctx: Context, userId: number) =>
  minorModeOf(ctx, (await findUserById(ctx.db, userId)) ?? fail('E_0'));

/** In `tx`: tells products the child's minor mode as it now is (`minor.settings.changed`). */
export const minorModeChanged = async (tx: Context, childId: number) => {
  const child = await findUserById(tx.db, childId);
  if (!child) return;
  await recordEvent(tx, {
    type: 'minor.settings.changed',
    userId: child.id,
    product: child.pid,
    data: await minorModeOf(tx, child),
  });
};

/**
 * A linked guardian sets the child's limits; an absent one goes back to the operator's. Only stricter
 * than the operator's: at most the default minutes, a curfew covering the default one (E_1 otherwise).
 */
export const setChildMinorMode = async (
  ctx: Context,
  guardianId: number,
  childId: number,
  input: { daily_limit_minutes?: number; curfew?: string },
) => {
  await requireGuardianOf(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  const defaults = defaultLimits(ctx.config, currentBand(child, ctx.now()));
  if (defaults.daily_limit_minutes === null || defaults.curfew === null) {
    throw invalidRequest('Minor mode applies to children under 18; this account has no limits to set.');
  }
  const daily = input.daily_limit_minutes ?? null;
  if (daily !== null && daily > defaults.daily_limit_minutes) {
    throw invalidRequest(`A guardian may lower the daily limit only: at most ${defaults.daily_limit_minutes} minutes.`);
  }
  const curfew = input.curfew?.trim() || null;
  if (curfew !== null && (!isCurfew(curfew) || !curfewCovers(curfew, defaults.curfew))) {
    throw invalidRequest(`curfew must be a time range HH:MM-HH:MM that covers ${defaults.curfew}.`);
  }
  await inTransaction(ctx, async (tx) => {
    await saveMinorSettings(tx.db, {
      user_id: childId,
      daily_limit_minutes: daily,
      curfew,
      updated_by: guardianId,
      updated_at: tx.now(),
    });
    await minorModeChanged(tx, childId);
  });
  return minorModeOf(ctx, child);
};

/**
 * Minor mode's defaults (services/edu/family/minor-mode.ts): daily limits by age and the night-time curfew
 * from the 2024 Guide for building minor mode on the mobile internet (移动互联网未成年人模式建设指南):
 * under 8, 40 minutes; 8 to 15, 60; 16 and 17, 120; no use from 22:00 to 06:00. An operator changes
 * them here; a linked guardian may only make them stricter for their child.
 */
import type { Readers } from './readers.ts';

export interface MinorModeConfig {
  /** Daily minutes by band of the 2024 guide: under 8; 8 to 15 (bands 8_13 and 14_15); 16 and 17. */
  eduMinorDailyMinutes: { under_8: number; '8_15': number; '16_17': number };
  /** The curfew as `HH:MM-HH:MM` (may cross midnight). @default '22:00-06:00' */
  eduMinorCurfew: string;
}

const CURFEW = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$/;

/** Whether `value` is a curfew `HH:MM-HH:MM` with a start unlike its end. */
export const isCurfew = (value: string) => {
  const match = CURFEW.exec(value);
  return match !== null && `${match[1]}${match[2]}` !== `${match[3]}${match[4]}`;
};

export const readMinorModeConfig = ({ int, str }: Readers, problems: string[]): MinorModeConfig => {
  const day = 24 * 60;
  let curfew = str('EDU_MINOR_CURFEW') ?? '22:00-06:00';
  if (!isCurfew(curfew)) {
    problems.push(
      `EDU_MINOR_CURFEW="${curfew}" must be a time range HH:MM-HH:MM with different ends. Fix: set EDU_MINOR_CURFEW=22:00-06:00 or unset it.`,
    );
    curfew = '22:00-06:00';
  }
  return {
    eduMinorDailyMinutes: {
      under_8: int('EDU_MINOR_MINUTES_UNDER_8', 40, 0, day),
      '8_15': int('EDU_MINOR_MINUTES_8_15', 60, 0, day),
      '16_17': int('EDU_MINOR_MINUTES_16_17', 120, 0, day),
    },
    eduMinorCurfew: curfew,
  };
};

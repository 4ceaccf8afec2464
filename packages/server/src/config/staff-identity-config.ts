/**
 * Staff identity controls (GB/T 22239-2019 level 3) for operators, school admins and teachers; pupils
 * and families are exempt. Read by `loadConfig` (config.ts); defaults are those of a public deployment.
 *
 * STAFF_PASSWORD_MIN_LENGTH   characters a staff password needs at least (12; 6–20, the wire's own rule
 *                             caps every password at 20).
 * STAFF_PASSWORD_CLASSES      of lower-case letters, capitals, digits and symbols, how many kinds it
 *                             mixes (3; 1–4).
 * STAFF_PASSWORD_MAX_AGE_DAYS days before a staff password must be changed (90; 0 = never).
 * STAFF_PASSWORD_HISTORY      previous passwords a new one may not repeat (5; 0–24).
 * STAFF_IDLE_MINUTES          minutes without a call after which a console or teaching session ends
 *                             (15; 0 = never, 1–1440).
 */
import type { Readers } from './readers.ts';

export interface StaffPasswordPolicy {
  minLength: number;
  classes: number;
  maxAgeDays: number;
  history: number;
}

export interface StaffIdentityConfig {
  /** The staff password policy (services/passwords/staff-policy.ts). */
  staffPassword: StaffPasswordPolicy;
  /** Minutes a staff session may go without a call (services/sessions/idle.ts); 0: no time-out. */
  staffIdleMinutes: number;
}

export const readStaffIdentityConfig = ({ int }: Readers): StaffIdentityConfig => ({
  staffPassword: {
    minLength: int('STAFF_PASSWORD_MIN_LENGTH', 12, 6, 20),
    classes: int('STAFF_PASSWORD_CLASSES', 3, 1, 4),
    maxAgeDays: int('STAFF_PASSWORD_MAX_AGE_DAYS', 90, 0, 3650),
    history: int('STAFF_PASSWORD_HISTORY', 5, 0, 24),
  },
  staffIdleMinutes: int('STAFF_IDLE_MINUTES', 15, 0, 1440),
});

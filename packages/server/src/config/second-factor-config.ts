/**
 * Second-factor settings, read by `loadConfig` (config.ts).
 *
 * OPERATOR_MFA                  `required` (default): an operator without a second factor may sign in,
 *                               but the admin API answers E_14 until one is set up; `optional`: it does not.
 * SECOND_FACTOR_PRODUCTS        pids whose accounts with a password must pass a second factor (they are
 *                               asked to set one up, E_14, when they have none), comma-separated.
 * SECOND_FACTOR_CHALLENGE_TTL   seconds a sign-in's second-factor challenge lives (default 300).
 */
import type { Readers } from './readers.ts';

export interface SecondFactorConfig {
  /** Whether operators must have a second factor before the admin API answers them. */
  operatorMfa: 'required' | 'optional';
  /** Products that require a second factor of accounts with a password. */
  secondFactorProducts: string[];
  secondFactorChallengeSeconds: number;
}

export const readSecondFactorConfig = ({ str, int }: Readers, problems: string[]): SecondFactorConfig => {
  const operatorMfa = str('OPERATOR_MFA') ?? 'required';
  if (operatorMfa !== 'required' && operatorMfa !== 'optional') {
    problems.push(`OPERATOR_MFA="${operatorMfa}" must be required or optional. Fix: OPERATOR_MFA=required`);
  }
  return {
    operatorMfa: operatorMfa === 'optional' ? 'optional' : 'required',
    secondFactorProducts: (str('SECOND_FACTOR_PRODUCTS') ?? '')
      .split(',')
      .map((pid) => pid.trim())
      .filter(Boolean),
    secondFactorChallengeSeconds: int('SECOND_FACTOR_CHALLENGE_TTL', 300, 30, 3600),
  };
};

/**
 * `edupass captcha policy reset <pid>`: an operator locked out of the console by a captcha policy (a
 * login policy of "always" set from the console itself, say) removes the console's policies of a
 * product from the command line; configuration or the default (risk) decides again.
 */
import type { Context } from '../context.ts';
import { resetCaptchaPolicies } from '../services/captcha/policy.ts';

export const CAPTCHA_USAGE = `  captcha policy reset <pid>               remove the console's captcha policies of a product (* for the
                                           ones of every product); configuration or risk decides again`;

export const resetPolicyCommand = async (ctx: Context, pid: string): Promise<string> => {
  const { removed, loginPolicy } = await resetCaptchaPolicies(ctx, pid);
  const what =
    removed.length === 0
      ? `No captcha policy was set for ${pid} in the console.`
      : `Removed ${removed.length} captcha ${removed.length === 1 ? 'policy' : 'policies'} of ${pid}: ${removed
          .map((row) => `${row.scene}=${row.policy}`)
          .sort()
          .join(', ')}.`;
  return `${what} Password sign-in${pid === '*' ? '' : ` to ${pid}`} is now under policy ${loginPolicy}.`;
};

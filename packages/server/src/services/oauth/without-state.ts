/**
 * Products whose WeChat/QQ code steps may come without EduPass's `state`: sites whose existing front end
 * runs the provider redirect itself and sends the specification's body `{code, pid, appid, agreement_ids}`.
 * Off unless turned on, per product: the console's choice (settings table) over OAUTH_WITHOUT_STATE.
 * What it gives up: EduPass can no longer tell that the code came back to the browser that started the
 * sign-in, so protection against login CSRF (and forged bind links) is that front end's job.
 */
import type { OauthStateSetting } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { productPids } from '../../store/admin/products.ts';
import { deleteSetting, findSetting, putSetting } from '../../store/admin/settings.ts';
import { audit } from '../admin/operations.ts';
import { requireProduct } from '../platform/products.ts';

const settingKey = (pid: string) => `oauth-without-state:${pid}`;

const consoleChoice = async (ctx: Context, pid: string): Promise<boolean | null> => {
  const value = await findSetting(ctx.db, settingKey(pid));
  return value === undefined ? null : value === 'on';
};

const configured = (ctx: Context, pid: string) =>
  ctx.config.oauthWithoutState.includes(pid) || ctx.config.oauthWithoutState.includes('*');

/** Whether a code step of `pid` without `state` is accepted now. Read on every use: every process follows a change at once. */
export const acceptsCodeWithoutState = async (ctx: Context, pid: string | undefined): Promise<boolean> => {
  if (pid === undefined) return false;
  return (await consoleChoice(ctx, pid)) ?? configured(ctx, pid);
};

export const oauthStateSettings = async (ctx: Context): Promise<OauthStateSetting[]> => {
  const pids = await productPids(ctx.db);
  return Promise.all(
    pids.map(async (pid) => {
      const operator = await consoleChoice(ctx, pid);
      return { pid, operator, configured: configured(ctx, pid), effective: operator ?? configured(ctx, pid) };
    }),
  );
};

export const changeOauthWithoutState = async (
  ctx: Context,
  operatorId: number,
  { pid, enabled }: { pid: string; enabled: boolean },
) => {
  await requireProduct(ctx, pid);
  const value = enabled ? 'on' : 'off';
  await putSetting(ctx.db, settingKey(pid), value);
  await audit(ctx, operatorId, 'oauth.without-state.set', `product:${pid}`, value);
};

export const removeOauthWithoutState = async (ctx: Context, operatorId: number, { pid }: { pid: string }) => {
  await requireProduct(ctx, pid);
  await deleteSetting(ctx.db, settingKey(pid));
  await audit(ctx, operatorId, 'oauth.without-state.clear', `product:${pid}`);
};

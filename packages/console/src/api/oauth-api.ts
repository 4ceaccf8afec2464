/** The console's calls for the WeChat & QQ settings (sign-in without EduPass's state), typed and parsed. */
import { adminRoutes, type OauthStateSetting } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';
import { bool, items, str } from './parse.ts';

export const getOauthSettings = async (): Promise<OauthStateSetting[]> =>
  items(
    await adminCall(adminRoutes.getOauthSettings),
    (p): OauthStateSetting => ({
      pid: str(p.pid),
      operator: p.operator === null || p.operator === undefined ? null : bool(p.operator),
      configured: bool(p.configured),
      effective: bool(p.effective),
    }),
    'product',
  );
export const setOauthWithoutState = (pid: string, enabled: boolean) =>
  adminCall(adminRoutes.setOauthWithoutState, { body: { pid, enabled } });
export const clearOauthWithoutState = (pid: string) => adminCall(adminRoutes.clearOauthWithoutState, { body: { pid } });

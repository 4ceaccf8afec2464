/** The console's calls for the WeChat & QQ settings (sign-in without EduPass's state). */
import { adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export const getOauthSettings = () => adminCall(adminRoutes.getOauthSettings);
export const setOauthWithoutState = (pid: string, enabled: boolean) =>
  adminCall(adminRoutes.setOauthWithoutState, { body: { pid, enabled } });
export const clearOauthWithoutState = (pid: string) => adminCall(adminRoutes.clearOauthWithoutState, { body: { pid } });

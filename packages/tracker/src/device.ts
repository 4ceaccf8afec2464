/** Device and environment info (§3 "Usage event"), read from the browser; the server adds the ip. */
import { type ReportEnv, USAGE_LIMITS } from '@edupass/protocol';
import { getNavigator, getWindow } from './globals.ts';

interface NavigatorExtras {
  connection?: { effectiveType?: string; type?: string };
  userAgentData?: { platform?: string };
}

const cut = (value: string | undefined): string | undefined => value?.slice(0, USAGE_LIMITS.envValueMax);

export const readDevice = (): ReportEnv => {
  const nav = getNavigator() as (Navigator & NavigatorExtras) | undefined;
  const win = getWindow();
  const screen = win?.screen;
  const connection = nav?.connection;
  return {
    resolution: screen && `${screen.width}x${screen.height}`,
    ua: cut(nav?.userAgent),
    platform: cut(nav?.userAgentData?.platform || nav?.platform),
    // `type` (wifi, cellular) where the browser tells it, else the effective speed class (4g).
    net: cut(connection?.type || connection?.effectiveType),
    cpu: nav?.hardwareConcurrency,
    density: win?.devicePixelRatio,
    la: cut(nav?.language),
  };
};

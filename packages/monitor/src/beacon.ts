/** The monitoring beacon (§7): a GET image request with query fields, or a POST beacon when that cannot work. */
import { USAGE_LIMITS } from '@edupass/protocol';
import { getGlobal, getNavigator, isHidden } from './globals.ts';
import type { BeaconSender } from './options.ts';

export const imageBeacon: BeaconSender = (url, fields) => {
  const query = new URLSearchParams(fields).toString();
  const full = `${url}?${query}`;
  const Image = getGlobal().Image;
  // An image request is cancelled when the page unloads, and proxies cut long URLs: POST then.
  if (full.length <= USAGE_LIMITS.beaconUrlMax && !isHidden() && Image) new Image().src = full;
  else if (!getNavigator()?.sendBeacon?.(url, query)) {
    void fetch(url, { method: 'POST', body: query, keepalive: true, credentials: 'omit' }).catch(() => {});
  }
};

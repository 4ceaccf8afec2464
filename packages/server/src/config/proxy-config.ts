/**
 * TRUST_PROXY: which peers may say who the client is through `X-Forwarded-For`.
 *
 * - unset, `false` or `0`: none; the client is the connecting address.
 * - a hop count (`1`, `2`): that many proxies stand in front; the client is the address the last of
 *   them appended (counted from the right of X-Forwarded-For), whatever the client put before it.
 * - `true`: the same as `1`. (It used to trust the whole header, so any client could pick its own IP
 *   by sending one; a proxy in front is what `true` was set for, and one hop is what that means.)
 * - a comma-separated list of addresses and CIDR ranges (`127.0.0.1,10.0.0.0/8`), or the names
 *   `loopback`, `linklocal`, `uniquelocal`: the proxies' own addresses; X-Forwarded-For is read from
 *   the right, skipping those, and the first address not in the list is the client.
 */
import { isIP } from 'node:net';

export type TrustProxy = false | number | string[];

/** Headers through which a proxy (or a client posing as one) names the client, host, scheme or port. */
export const PROXY_HEADERS = [
  'forwarded',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-forwarded-for',
  'x-real-ip',
] as const;

/**
 * As Fastify's `trustProxy` option. Fastify ignores X-Forwarded-For entirely for a bare hop count
 * (it cannot check that the peer is a proxy), so hops are counted here: address i (0 = the peer,
 * then X-Forwarded-For from the right) is a proxy while i < hops. With a hop count the port must
 * be reachable only through the proxy; an address list has no such condition.
 */
export const fastifyTrustProxy = (trust: TrustProxy) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

const isAddressOrRange = (entry: string) => {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
};

export const readTrustProxy = (raw: string | undefined, problems: string[]): TrustProxy => {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
  if (value === 'true' || value === 'yes') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 10) return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || bad.length > 0) {
    problems.push(
      `TRUST_PROXY="${raw}" must be a number of proxy hops (0–10) or a list of proxy addresses or CIDR ranges${bad.length > 0 ? ` (not an address: ${bad.join(', ')})` : ''}. Fix: e.g. TRUST_PROXY=1 for one nginx in front, or TRUST_PROXY=127.0.0.1,10.0.0.0/8`,
    );
    return false;
  }
  return entries;
};

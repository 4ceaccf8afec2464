/**
 * The address a per-address limit counts a client under: code sends, wrong passwords and failed
 * challenges toward the captcha's risk check, slide puzzles, passkey options, badge tries, wrong
 * client secrets and usage reports.
 *
 * An IPv4 address counts as it is, and so does an IPv4 client that a dual-stack socket reports as
 * `::ffff:a.b.c.d` (masked as IPv6, every IPv4 client would share one count). An IPv6 address counts
 * by its network, its first RATE_LIMIT_IPV6_PREFIX bits (64): a provider gives each customer a /64
 * at least, so counted address by address, one client could take a fresh address for every attempt
 * and never meet a limit. The exact address stays in the logs, the security log and the sessions.
 */
import ipaddr from 'ipaddr.js';
import type { Context } from '../../context.ts';

export const countedAddress = (ctx: Pick<Context, 'config'>, ip: string): string => {
  if (!ip.includes(':')) return ip;
  let address: ipaddr.IPv6;
  try {
    address = ipaddr.IPv6.parse(ip);
  } catch {
    return ip;
  }
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const prefix = ctx.config.rateLimitIpv6Prefix;
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/${prefix}`);
  return `${network.toRFC5952String()}/${prefix}`;
};

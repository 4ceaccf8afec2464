/**
 * Where webhooks may go. An operator's URL must not turn the server into a way into its own network
 * (SSRF): only http and https, and — unless WEBHOOK_ALLOW_PRIVATE — no loopback, private, link-local
 * or otherwise internal address, nor a NAT64 or 6to4 one (an IPv4 address behind a gateway). The
 * address is checked when the connection is made (the lookup below), not only when the URL is saved,
 * so a name that later resolves inside is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalidRequest } from '../../errors.ts';

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64 (RFC 6052, RFC 8215) and 6to4 (RFC 3056): a gateway turns them into an IPv4 address,
  // internal ones included.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** Loopback, private, link-local, multicast and reserved addresses (IPv4-mapped IPv6 included). */
export const isInternalAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return internal.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 0 || internal.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

const MAX_URL = 2048;

/** A URL an endpoint may have; refused with E_1 and the reason otherwise. */
export const checkWebhookUrl = (raw: string, allowPrivate: boolean): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest('url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidRequest('url must be http or https.');
  if (raw.length > MAX_URL) throw invalidRequest(`url must be at most ${MAX_URL} characters.`);
  if (url.username !== '' || url.password !== '') throw invalidRequest('url must not carry a user name or password.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || (isIP(host) !== 0 && isInternalAddress(host)))) {
    throw invalidRequest('url must not point at a loopback or private address.');
  }
  return url;
};

/** A DNS lookup for outgoing requests that refuses internal addresses (unless they are allowed). */
export const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = allowPrivate ? addresses : addresses.filter((a) => !isInternalAddress(a.address));
      const first = allowed[0];
      if (first === undefined) {
        const refused = Object.assign(new Error(`${hostname} resolves to an internal address`), { code: 'EREFUSED' });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, first.address, first.family);
    });
  };

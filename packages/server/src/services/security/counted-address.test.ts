import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.ts';
import { countedAddress } from './counted-address.ts';

const under = (env: Record<string, string> = {}) => ({ config: loadConfig(env) });

describe('the address a per-address limit counts', () => {
  it('IPv4 as it is, and an IPv4 client written as IPv4-mapped IPv6 as its IPv4 address', () => {
    const ctx = under();
    expect(countedAddress(ctx, '203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress(ctx, '::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress(ctx, '::ffff:cb00:7108')).toBe('203.0.113.8');
    expect(countedAddress(ctx, '::ffff:203.0.113.9')).not.toBe(countedAddress(ctx, '::ffff:203.0.113.7'));
  });

  it('IPv6 by its /64: every address of one network counts as one, the next network apart', () => {
    const ctx = under();
    const network = countedAddress(ctx, '2001:db8:1:2::10');
    expect(network).toBe('2001:db8:1:2::/64');
    expect(countedAddress(ctx, '2001:DB8:1:2:ffff:ffff:ffff:fffe')).toBe(network);
    expect(countedAddress(ctx, 'fe80::1%eth0')).toBe('fe80::/64');
    expect(countedAddress(ctx, '2001:db8:1:3::10')).toBe('2001:db8:1:3::/64');
  });

  it('RATE_LIMIT_IPV6_PREFIX widens or narrows the network, 32 to 128 bits', () => {
    expect(countedAddress(under({ RATE_LIMIT_IPV6_PREFIX: '56' }), '2001:db8:1:2ff::1')).toBe('2001:db8:1:200::/56');
    expect(countedAddress(under({ RATE_LIMIT_IPV6_PREFIX: '128' }), '2001:db8:1:2:0:0:0:1')).toBe(
      '2001:db8:1:2::1/128',
    );
    expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: '16' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: '16' })).toThrow(
      /RATE_LIMIT_IPV6_PREFIX="16" must be a whole number from 32 to 128/,
    );
  });

  it('what is not an address (a proxy that wrote something else) counts as it was written', () => {
    expect(countedAddress(under(), 'unknown')).toBe('unknown');
    expect(countedAddress(under(), 'not:an:address')).toBe('not:an:address');
  });
});

import { ENVS } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.ts';
import { baseUrl } from './hosts.ts';
import { buildQuery } from './query.ts';

const config = (extra: object) => resolveConfig({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web', ...extra });

describe('base hosts', () => {
  it('are same-origin without domain or host', () => {
    expect(baseUrl(config({}), 'tiger')).toBe('');
    expect(baseUrl(config({ env: 'dev' }), 'platform')).toBe('');
  });

  it('derive from the domain per environment for both host kinds', () => {
    const table = Object.fromEntries(
      ENVS.map((env) => [
        env,
        [
          baseUrl(config({ env, domain: 'example.com' }), 'tiger'),
          baseUrl(config({ env, domain: '.example.com' }), 'platform'),
        ],
      ]),
    );
    expect(table).toEqual({
      dev: ['https://dev-api.example.com', 'https://dev-platform.example.com'],
      staging: ['https://staging-api.example.com', 'https://staging-platform.example.com'],
      prod: ['https://api.example.com', 'https://platform.example.com'],
      'api-test': ['https://api-test-api.example.com', 'https://api-test-platform.example.com'],
      test: ['https://test-api.example.com', 'https://test-platform.example.com'],
      press: ['https://press-api.example.com', 'https://press-platform.example.com'],
    });
  });

  it('are replaced kind by kind by the host override', () => {
    const c = config({ env: 'dev', domain: 'example.com', host: { tiger: 'http://127.0.0.1:9000/' } });
    expect(baseUrl(c, 'tiger')).toBe('http://127.0.0.1:9000');
    expect(baseUrl(c, 'platform')).toBe('https://dev-platform.example.com');
  });
});

describe('query string', () => {
  it('is built from the truthy params only', () => {
    expect(buildQuery({ a: 1, b: '', c: 0, d: 'x y', e: undefined, f: null, g: false, h: true })).toBe(
      '?a=1&d=x+y&h=true',
    );
  });

  it('is empty when no param is truthy', () => {
    expect(buildQuery({ a: '' })).toBe('');
    expect(buildQuery()).toBe('');
  });
});

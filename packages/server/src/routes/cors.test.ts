/** Front ends on another origin call with credentials: the configured origins are allowed, nothing else. */

import { A } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const ALLOWED = 'https://www.example.edu';

const { server } = useTestServer({ corsOrigins: [ALLOWED] });

const preflight = (origin: string) =>
  fetch(`${server.url}${A}/login`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,auth-version',
    },
  });

describe('CORS', () => {
  it('allows a configured origin with credentials', async () => {
    const answer = await preflight(ALLOWED);
    expect(answer.status).toBeLessThan(300);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
    const simple = await fetch(`${server.url}${A}/agreements`, { headers: { origin: ALLOWED } });
    expect(simple.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('allows no other origin', async () => {
    const answer = await preflight('https://evil.example.com');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await fetch(`${server.url}${A}/agreements`, { headers: { origin: 'https://evil.example.com' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
  });
});

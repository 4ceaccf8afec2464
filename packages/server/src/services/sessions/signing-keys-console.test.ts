/** The console's signing-key calls over HTTP: operators list and rotate (audited); others are refused. */
import type { SigningKeyInfo } from '@edupass/protocol';
import { auditorToken, expectError, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
let token: string;

beforeAll(async () => {
  token = (await signInOperator(server)).token;
});

describe('signing keys in the console', () => {
  test('an operator lists the keys, rotates (next, then at once), and the audit log records it', async () => {
    const listed = await call<SigningKeyInfo[]>('GET', '/admin/signing-keys', undefined, { token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ generation: 1, state: 'signing', alg: 'ES256', published_until: null }),
    ]);

    const next = await call<SigningKeyInfo>('POST', '/admin/signing-keys/rotate', {}, { token });
    expect(next.body).toMatchObject({ generation: 2, state: 'next' });
    const atOnce = await call<SigningKeyInfo>('POST', '/admin/signing-keys/rotate', { now: true }, { token });
    expect(atOnce.body).toMatchObject({ generation: 3, state: 'signing' });
    const states = (await call<SigningKeyInfo[]>('GET', '/admin/signing-keys', undefined, { token })).body.map(
      (key) => key.state,
    );
    expect(states).toEqual(['retiring', 'retiring', 'signing']);

    const audit = await call<{ action: string; target: string; detail: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(audit.body[0]).toMatchObject({
      action: 'signing-key.rotate',
      target: `key:${atOnce.body.kid}`,
      detail: 'now',
    });
    expectError(await call('POST', '/admin/signing-keys/rotate', { now: 'yes' }, { token }), 'E_1');
  });

  test('a user who is not an operator gets neither', async () => {
    const account = await signUp(server);
    for (const [method, path] of [
      ['GET', '/admin/signing-keys'],
      ['POST', '/admin/signing-keys/rotate'],
    ] as const) {
      const answer = await call(method, path, method === 'POST' ? {} : undefined, { token: account.token });
      expect(answer.status, path).toBe(403);
    }
  });
});

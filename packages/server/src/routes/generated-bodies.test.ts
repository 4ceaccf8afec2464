/**
 * Property: whatever JSON body arrives at a POST/PATCH/PUT/DELETE account or token route, the
 * server answers under 500, every non-2xx answer is a catalogue error, and it keeps answering.
 */
import { type Fields, isServerCode } from '@edupass/protocol';
import { accountTableRoutes, sessionForRoute, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call } = useTestServer();
let userId: number;
beforeAll(async () => {
  userId = (await signUp(server)).userId;
});

const bodyRoutes = accountTableRoutes.filter(([, spec]) => spec.method !== 'GET');

/** Values near what a field expects, and far from it. */
const nearValue = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.stringMatching(/^1[3-9]\d{9}$/),
  fc.stringMatching(/^\d{6}$/),
  fc.integer(),
  fc.double(),
  fc.array(fc.integer({ min: -2, max: 5 })),
  fc.constantFrom('edupass', -1, [-1], null, '', 'REGISTER'),
);

/** Records of the route's own field names, some present, with arbitrary values. */
const ownFields = (fields: Fields | undefined) =>
  fc.record(Object.fromEntries(Object.keys(fields ?? { x: { type: 'any' } }).map((name) => [name, nearValue])), {
    requiredKeys: [],
  });

const bodies = (fields: Fields | undefined) =>
  fc.oneof(
    { arbitrary: ownFields(fields), weight: 3 },
    { arbitrary: fc.object(), weight: 1 },
    { arbitrary: fc.anything(), weight: 1 },
  );

describe('generated bodies', () => {
  it.each(bodyRoutes)('%s: never a 500, always a catalogue answer', async (name, spec) => {
    await fc.assert(
      fc.asyncProperty(bodies(spec.body), async (body) => {
        const text = JSON.stringify(body);
        const answer = await call(spec.method, spec.path, undefined, {
          raw: text ?? '',
          // A fresh session each time: some generated bodies are valid logouts.
          ...(spec.auth === 'token' ? { token: await sessionForRoute(server, spec, userId) } : {}),
        });
        expect(answer.status, `${name} ${text}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
        if (answer.status >= 300) {
          const error = answer.body as { error_code?: unknown; error_message?: unknown };
          expect(isServerCode(error?.error_code), `${name} ${text}: ${JSON.stringify(answer.body)}`).toBe(true);
          expect(typeof error.error_message).toBe('string');
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the server still answers afterwards', async () => {
    const health = await call('GET', '/healthz');
    expect(health.status).toBe(200);
    const agreements = await call('GET', '/tiger/v3/web/accounts/agreements');
    expect(agreements.status).toBe(200);
  });
});

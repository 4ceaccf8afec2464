/**
 * The table of request steps (http/request-steps.ts) names every hook of the root instance: a hook
 * added outside it fails here, so the answers before Fastify cannot silently skip it.
 */
import { useTestServer } from '@edupass/test-kit/harness';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type HookKind, REQUEST_STEPS } from './request-steps.ts';

const KINDS: HookKind[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'onSend', 'onResponse'];
/** The test kit's own check of every answer (test-kit/answer-check.ts), installed after the app is built. */
const TEST_KIT_HOOKS = ['checkAnswerShape'];

/** The names of the root instance's hooks of each kind, in order (Fastify keeps them under a symbol). */
const rootHooks = (app: FastifyInstance) => {
  const symbol = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.hooks');
  if (symbol === undefined) throw new Error("Fastify's hooks are not where this test looks");
  const hooks = (app as unknown as Record<symbol, Record<HookKind, { name: string }[]>>)[symbol];
  return Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      (hooks?.[kind] ?? []).map((hook) => hook.name).filter((n) => !TEST_KIT_HOOKS.includes(n)),
    ]),
  );
};

const declared = (withCors: boolean) =>
  Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      REQUEST_STEPS.filter((step) => step.hook === kind && (withCors || step.name !== 'handleCors')).map(
        (step) => step.name,
      ),
    ]),
  );

describe('request steps', () => {
  const plain = useTestServer();
  const withCors = useTestServer({ corsOrigins: ['https://site.example'] });

  it('every hook of the root instance is declared in REQUEST_STEPS, in order', () => {
    expect(rootHooks(plain.server.app.app)).toEqual(declared(false));
    expect(rootHooks(withCors.server.app.app)).toEqual(declared(true));
  });

  it('a hook added outside the table is caught', async () => {
    const app = plain.server.app.app;
    const symbol = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.hooks') as symbol;
    const hooks = (app as unknown as Record<symbol, Record<HookKind, unknown[]>>)[symbol] as Record<
      HookKind,
      unknown[]
    >;
    // Fastify refuses hooks once listening; put one in its list as an addHook before listen would.
    hooks.onRequest.push(function undeclaredStep() {});
    try {
      expect(rootHooks(app)).not.toEqual(declared(false));
    } finally {
      hooks.onRequest.pop();
    }
  });
});

/**
 * Every cross-cutting step a request goes through, in one table. Fastify runs them as the root
 * instance's hooks named here (and its logger); the answers before Fastify (http/before-fastify.ts:
 * the remembered profile read, the usage collector) take each one over as `beforeFastify` says, or
 * leave the request to Fastify. http/request-steps.test.ts fails when the root instance has a hook
 * this table does not name: a hook added later must be declared here, with what the answers before
 * Fastify do about it, so none of them is silently skipped.
 */

export type HookKind = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'onSend' | 'onResponse';

export interface RequestStep {
  /** What the step does. */
  step: string;
  /** The hook it runs in, and the hook function's name (a plugin's own name for one it adds). */
  hook: HookKind;
  name: string;
  /** Where it is registered. */
  module: string;
  /** How the answers before Fastify give the same. */
  beforeFastify: string;
}

/** The root instance's hooks, in the order they run within their kind. */
export const REQUEST_STEPS: readonly RequestStep[] = [
  {
    step: 'browser headers (helmet policy, no framing, nosniff, referrer policy, HSTS)',
    hook: 'onRequest',
    name: 'answerDefaults',
    module: 'http/browser-headers.ts',
    beforeFastify: "written with writeHead from browserHeaders' AnswerHeaders, the very values the hook sets",
  },
  {
    step: 'CORS (only with CORS_ORIGINS)',
    hook: 'onRequest',
    name: 'handleCors',
    module: '@fastify/cors, registered by http/browser-headers.ts',
    beforeFastify: 'a request with Origin goes to Fastify; the headers sent without one are in AnswerHeaders',
  },
  {
    step: 'URL length (414)',
    hook: 'onRequest',
    name: 'refuseLongUrl',
    module: 'http/framework-errors.ts',
    beforeFastify: 'they take exact short paths only; anything else goes to Fastify',
  },
  {
    step: 'cookies read',
    hook: 'onRequest',
    name: 'fastifyCookieHandler',
    module: '@fastify/cookie',
    beforeFastify: 'the profile read takes Authorization only (a cookie alone goes to Fastify); reports read none',
  },
  {
    step: 'drain: count a running request, or answer 503 E_10 while draining',
    hook: 'onRequest',
    name: 'countOrTurnAway',
    module: 'http/draining.ts',
    beforeFastify: 'track(response) counts it; they are not asked while draining or closing',
  },
  {
    step: 'short Content-Security-Policy and no-store on JSON and empty answers',
    hook: 'onSend',
    name: 'answerPolicy',
    module: 'http/browser-headers.ts',
    beforeFastify: 'AnswerHeaders.json and AnswerHeaders.empty carry them',
  },
  {
    step: 'cookies set',
    hook: 'onSend',
    name: 'fastifyCookieOnSendHandler',
    module: '@fastify/cookie',
    beforeFastify: 'they set no cookie',
  },
  {
    step: 'metrics: count and time by route pattern',
    hook: 'onResponse',
    name: 'countRequest',
    module: 'http/metrics-endpoint.ts',
    beforeFastify: "record() on the route's series",
  },
];

/**
 * Not hooks, but steps too: Fastify's request id (genReqId, a UUID), the client's address (TRUST_PROXY)
 * and the request log lines (its logController, http/request-log.ts); the answers before Fastify give
 * the same with randomUUID, clientAddressOf (http/before-fastify.ts) and logArrived/logAnswered.
 */
export const LOGGER_STEPS = ['request id', 'client address', 'request log'] as const;

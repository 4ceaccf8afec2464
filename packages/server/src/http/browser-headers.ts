/**
 * Headers for browsers, from helmet: a Content-Security-Policy that lets the web client,
 * the console, the API docs and the captcha vendors' widgets run and nothing else; no framing
 * (clickjacking of the account and console pages); HSTS when PUBLIC_URL is https; nosniff; a
 * Referrer-Policy that keeps URLs (OAuth codes and tickets) on this site; and `no-store` on every
 * JSON answer, since they carry tokens or personal data. CORS: the configured front ends only, with
 * every method and header the API uses.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CAPTCHA_TICKET_HEADER, DAY_SECONDS } from '@edupass/protocol';
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config/config.ts';
import { siteOrigins } from '../config/site-origins.ts';

/**
 * Where the captcha vendors' widgets load scripts, frames and calls from (captcha SDK's
 * DEFAULT_SCRIPTS and what those scripts load in turn).
 */
export const CAPTCHA_VENDOR_SOURCES = [
  'https://*.geetest.com',
  'https://*.qcloud.com',
  'https://*.qq.com',
  'https://*.gtimg.com',
  'https://*.126.net',
  'https://*.163.com',
  'https://*.fengkongcloud.cn',
  'https://*.fengkongcloud.com',
  'https://*.alicdn.com',
  'https://*.aliyuncs.com',
];

/** Every header a client of the API sends (the SDKs and the web client). */
export const CORS_HEADERS = [
  'Authorization',
  'Auth-Version',
  'Content-Type',
  CAPTCHA_TICKET_HEADER,
  'Product-Code',
  'Platform',
  'SDK-Account-Version',
  'Client-ID',
];

/** Every method the API answers. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

const ONE_YEAR = 365 * DAY_SECONDS;

/**
 * The headers helmet sets for these options, worked out once. Our policy holds no per-request values
 * (no nonces), and building it for every answer (as @fastify/helmet does, helmet's whole option
 * parsing included) cost a profile read more than half its speed.
 */
const helmetHeaders = (options: HelmetOptions): Record<string, string> => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
};

const CSP = 'content-security-policy';

/**
 * Helmet's headers that rule only what a document does: how it is isolated from other windows and
 * sites (COOP, Origin-Agent-Cluster), whether it prefetches DNS, and old browsers' switches for
 * downloads, Flash and Acrobat policy files, and the XSS filter. Pages get them, and so do
 * redirects: a browser weighs COOP at each redirect of a navigation, and one without it between two
 * pages with it cuts a sign-in window off from the page that opened it. An API answer is data that
 * loads nothing, so it gets the headers that protect an answer (OWASP's REST Security Cheat Sheet:
 * a policy without framing, nosniff, no-store, HSTS), and none of these. Node checks and writes
 * each header of each answer: these six were about a tenth of a profile read's CPU (bench/server).
 */
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const HTML = /^text\/html\b/;
/** Files a page loads, which a policy does not rule (a worker's script would get the strict short one). */
const SUBRESOURCE = /^(text|application)\/(javascript|css)\b/;

/**
 * The policy of JSON answers: every directive of the pages' policy or a stricter one (what it
 * leaves out falls back to `default-src 'self'`, and a JSON document loads nothing). The pages'
 * policy is about 1.5 KB, which Node checks and writes with every answer: sent with every API
 * answer it cost a profile read in bench/server about a quarter of its CPU.
 */
const jsonPolicy = (https: boolean) =>
  [
    "default-src 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "script-src 'self'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join(';');

/** The headers the hooks give an answer of a route that sets none of its own, by what it carries. */
export interface AnswerHeaders {
  /** A JSON body. */
  json: Readonly<Record<string, string>>;
  /** No body (a 204). */
  empty: Readonly<Record<string, string>>;
}

/**
 * Registers the hooks that give every answer its browser headers, and answers the headers they give
 * (for the requests answered without the hooks, http/before-fastify.ts).
 */
export const browserHeaders = async (app: FastifyInstance, config: Config): Promise<AnswerHeaders> => {
  const https = config.publicUrl.startsWith('https:');
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Chromium applies form-action to a form's redirects too: the development provider's form ends
        // at a front end's callback page (the origins third-party sign-in may return to).
        formAction: ["'self'", ...siteOrigins(config)],
        scriptSrc: ["'self'", ...CAPTCHA_VENDOR_SOURCES],
        // Vendors' widgets and the API docs set inline styles; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'", ...CAPTCHA_VENDOR_SOURCES],
        // Avatars come from WeChat's and QQ's image hosts, among others.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:', ...CAPTCHA_VENDOR_SOURCES],
        connectSrc: ["'self'", ...CAPTCHA_VENDOR_SOURCES],
        frameSrc: ["'self'", ...CAPTCHA_VENDOR_SOURCES],
        workerSrc: ["'self'", 'blob:'],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: ONE_YEAR, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Usage beacons, the tracking pixel and SDK files are loaded by customers' pages.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  const defaults = Object.freeze(
    Object.fromEntries(Object.entries(headers).filter(([name]) => !DOCUMENT_ONLY.includes(name))),
  );
  const documentHeaders = Object.freeze(
    Object.fromEntries(Object.entries(headers).filter(([name]) => DOCUMENT_ONLY.includes(name))),
  );
  // Set first thing on every request (before any hook can answer early), so a route or an error
  // path that sets one of them explicitly overrides it, as before; set once, with one call.
  app.addHook('onRequest', function answerDefaults(_request, reply, done) {
    reply.headers(defaults);
    done();
  });
  const pagePolicy = headers[CSP];
  const json = jsonPolicy(https);
  // JSON answers (errors, 404s and early answers from other hooks included) are not to be stored, and
  // get the short policy unless their route set its own. So do answers without a body (the usage
  // collector's 204s, its hottest path): they load nothing either, and the pages' 1.5 KB policy was
  // the largest cost of writing them (bench/usage). And scripts and style sheets: a policy rules
  // documents (and workers), and the pages' policy sent with each of the web client's files was a
  // third of what its first screen transferred.
  app.addHook('onSend', function answerPolicy(_request, reply, payload, done) {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      if (reply.getHeader(CSP) === pagePolicy) reply.header(CSP, json);
    } else {
      const status = reply.statusCode;
      if ((typeof type === 'string' && HTML.test(type)) || (status >= 300 && status < 400 && status !== 304))
        reply.headers(documentHeaders);
      if (
        // A 304 keeps its page's policy: a browser may update the stored page's headers from it.
        status !== 304 &&
        (payload === undefined ||
          payload === null ||
          payload === '' ||
          (typeof type === 'string' && SUBRESOURCE.test(type))) &&
        reply.getHeader(CSP) === pagePolicy
      ) {
        reply.header(CSP, json);
      }
    }
    done(null, payload);
  });
  const cors = config.corsOrigins.length > 0;
  if (cors) {
    await app.register(fastifyCors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: CORS_METHODS,
      allowedHeaders: CORS_HEADERS,
      maxAge: 600,
    });
  }
  // What the hooks above give an answer to a request without `Origin` (@fastify/cors names the
  // origin only when one is sent; the rest it sends always), of a route that sets none of its own.
  const empty: Record<string, string> = {
    ...defaults,
    [CSP]: json,
    ...(cors ? { vary: 'Origin', 'access-control-allow-credentials': 'true' } : {}),
  };
  return {
    json: Object.freeze({ ...empty, 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' }),
    empty: Object.freeze(empty),
  };
};

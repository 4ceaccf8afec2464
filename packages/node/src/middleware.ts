/**
 * Request guards for the three ways a Node backend is written. Each reads `Authorization: Bearer …`,
 * verifies it (and, with `online: true`, asks EduPass whether its session is live), and either hands
 * the claims on as `request.edupass` or answers 401 (503 when EduPass cannot be reached) with
 * `WWW-Authenticate` and a small JSON body `{ error, message }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EduPassAuthError, isEduPassAuthError } from './errors.ts';
import type { EduPassClaims, Verifier } from './verifier.ts';

export interface GuardOptions {
  /** Also ask EduPass (token introspection) on every request: a sign-out takes effect at once. */
  online?: boolean;
}

/** A request after a guard let it through. */
export interface WithEduPass {
  edupass?: EduPassClaims;
}

type Headers = Record<string, string | string[] | undefined>;

const bearerOf = (headers: Headers): string => {
  const value = headers.authorization;
  const header = Array.isArray(value) ? value[0] : value;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (match?.[1] === undefined)
    throw new EduPassAuthError('token_missing', 'Send Authorization: Bearer <access token>.');
  return match[1];
};

/** The claims of the request's bearer token, as the options ask. */
export const authenticateRequest = async (
  verifier: Verifier,
  headers: Headers,
  options: GuardOptions = {},
): Promise<EduPassClaims> => {
  const token = bearerOf(headers);
  return options.online ? verifier.verifyOnline(token) : verifier.verify(token);
};

const refusal = (error: EduPassAuthError) => ({
  status: error.status,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    // Unavailable: a client may try again shortly (the JWKS cool-down is 30 s by default).
    ...(error.status === 503 ? { 'retry-after': '5' } : {}),
    ...(error.status === 401
      ? {
          'www-authenticate':
            error.code === 'token_missing'
              ? 'Bearer'
              : `Bearer error="invalid_token", error_description="${error.code}"`,
        }
      : {}),
  },
  body: JSON.stringify({ error: error.code, message: error.message }),
});

const answerNode = (response: ServerResponse, error: EduPassAuthError) => {
  const { status, headers, body } = refusal(error);
  response.writeHead(status, headers).end(body);
};

/** Express (or Connect): `app.use(edupassExpress(verifier))`; the claims are `req.edupass`. */
export const edupassExpress =
  (verifier: Verifier, options: GuardOptions = {}) =>
  (request: IncomingMessage & WithEduPass, response: ServerResponse, next: (error?: unknown) => void): void => {
    authenticateRequest(verifier, request.headers, options).then(
      (claims) => {
        request.edupass = claims;
        next();
      },
      (error: unknown) => (isEduPassAuthError(error) ? answerNode(response, error) : next(error)),
    );
  };

/**
 * Plain `node:http`: wraps a handler that runs only for a valid token, with its claims.
 * `createServer(edupassNode(verifier, (req, res, claims) => …))`.
 */
export const edupassNode =
  (
    verifier: Verifier,
    handler: (request: IncomingMessage, response: ServerResponse, claims: EduPassClaims) => unknown,
    options: GuardOptions = {},
  ) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let claims: EduPassClaims;
    try {
      claims = await authenticateRequest(verifier, request.headers, options);
    } catch (error) {
      if (!isEduPassAuthError(error)) throw error;
      request.resume();
      answerNode(response, error);
      return;
    }
    await handler(request, response, claims);
  };

/** What the Fastify guard uses of Fastify's request and reply (no dependency on Fastify itself). */
export interface FastifyLikeRequest extends WithEduPass {
  headers: Headers;
}
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string>): FastifyLikeReply;
  send(body: string): unknown;
}

/**
 * Fastify: a preHandler, for a route (`{ preHandler: edupassFastify(verifier) }`) or a scope
 * (`app.addHook('preHandler', edupassFastify(verifier))`); the claims are `request.edupass`.
 */
export const edupassFastify =
  (verifier: Verifier, options: GuardOptions = {}) =>
  async (request: FastifyLikeRequest, reply: FastifyLikeReply): Promise<void> => {
    try {
      request.edupass = await authenticateRequest(verifier, request.headers, options);
    } catch (error) {
      if (!isEduPassAuthError(error)) throw error;
      const { status, headers, body } = refusal(error);
      await reply.code(status).headers(headers).send(body);
    }
  };

/**
 * Registers a route of the protocol table: its method and path, its schema for the API docs, field
 * parsing, authentication, and the success status. Handlers receive parsed input and return the
 * answer (or nothing, for 204).
 */
import type { Readable } from 'node:stream';
import {
  type AnswerOf,
  type BodyOf,
  CAPTCHA_TICKET_HEADER,
  type FieldSpec,
  type Fields,
  NO_CONTENT,
  type OperatorRouteName,
  type ParamsOf,
  type QueryOf,
  type RouteName,
  type RouteSpec,
  routeAliases,
  routes,
  wireErrorAnswer,
} from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import { authenticateOperator } from '../services/admin/operators.ts';
import { refusedBeforePasswordChange } from '../services/sessions/password-choice.ts';
import { authenticate, type ClientInfo, type SignedInSession } from '../services/sessions/tokens.ts';
import { presentedCredential } from './origin-check.ts';
import { parseFields } from './parse-fields.ts';
import { clientInfo, header, wantsTokenSet } from './request-info.ts';

export interface RouteInput<N extends RouteName> {
  body: BodyOf<N>;
  query: QueryOf<N>;
  params: ParamsOf<N>;
  /** The caller's session: always there on 'token' routes, when signed in on 'optional' ones. */
  session: N extends TokenRoute ? SignedInSession : SignedInSession | undefined;
  client: ClientInfo;
  wantsTokenSet: boolean;
  captchaTicket: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

type TokenRoute = { [N in RouteName]: (typeof routes)[N]['auth'] extends 'token' | 'operator' ? N : never }[RouteName];

/** A route's handler: the answer its table entry names, or nothing for a 204. */
/** An answer written as it is read (a long export): the route's answer as JSON, in chunks. */
export class StreamedJson {
  constructor(readonly stream: Readable) {}
}

export type Handler<N extends RouteName> = (input: RouteInput<N>) => Promise<AnswerOf<N> | StreamedJson>;

const ACCOUNT_BODY_LIMIT = 16 * 1024;
const QUERY_STRING = { fromQueryString: true };
/** What a route without query or path fields gets for them. */
const noFields = (): Record<string, unknown> => ({});

/**
 * A handler's input. The client info is worked out only when a handler reads it (the address behind
 * proxies takes work), and on the prototype, so building one per call stays a plain allocation.
 */
class CallInput {
  #client: ClientInfo | undefined;
  readonly wantsTokenSet: boolean;
  readonly captchaTicket: string | undefined;
  constructor(
    private readonly ctx: Context,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly session: SignedInSession | undefined,
    readonly body: Record<string, unknown>,
    readonly query: Record<string, unknown>,
    readonly params: Record<string, unknown>,
  ) {
    this.wantsTokenSet = wantsTokenSet(request);
    this.captchaTicket = header(request, CAPTCHA_TICKET_HEADER);
  }
  get client(): ClientInfo {
    this.#client ??= clientInfo(this.request, this.ctx.config);
    return this.#client;
  }
}

const jsonSchemaOf = (spec: FieldSpec): Record<string, unknown> => {
  const type = spec.type;
  if (type === 'integer[]') return { type: 'array', items: { type: 'integer' }, maxItems: spec.maxLength };
  if (type === 'string[]') return { type: 'array', items: { type: 'string' }, maxItems: spec.maxLength };
  if (type === 'any') return {};
  return { type, ...(type === 'string' && spec.maxLength ? { maxLength: spec.maxLength } : {}) };
};

/**
 * JSON schema of a field list, for the OpenAPI document. `required` only when some field is: OpenAPI
 * 3.0's schema object refuses an empty list (`minItems: 1`).
 */
export const objectSchema = (fields: Fields) => {
  const required = Object.entries(fields)
    .filter(([, spec]) => spec.required)
    .map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, jsonSchemaOf(spec)])),
    ...(required.length > 0 ? { required } : {}),
  };
};

/**
 * The route's answer for the API docs: its schema under 200, or a 204 without a body. Only described:
 * app.ts sends every answer as JSON.stringify writes it, so no field is dropped for want of a schema.
 */
export const responseSchemas = (spec: RouteSpec) => ({
  ...(spec.answer === NO_CONTENT ? { 204: NO_CONTENT } : { 200: spec.answer }),
  '4XX': wireErrorAnswer,
  '5XX': wireErrorAnswer,
});

const resolveSession = async (ctx: Context, name: RouteName, spec: RouteSpec, request: FastifyRequest) => {
  if (spec.auth === 'none') return undefined;
  const token = presentedCredential(ctx, request);
  if (token === undefined) {
    if (spec.auth !== 'optional') throw new ApiError('E_0');
    return undefined;
  }
  if (spec.auth === 'token') return authenticate(ctx, token);
  if (spec.auth === 'operator') return authenticateOperator(ctx, token, name as OperatorRouteName);
  // 'optional': a stale token reads as a visitor rather than an error.
  return authenticate(ctx, token).catch(() => undefined);
};

export interface RouteOptions {
  /** Refuse fields the route does not list (the profile update: "Only the allowed profile fields may be sent"). */
  strict?: boolean;
  tags?: string[];
}

export const defineRoute = <N extends RouteName>(
  app: FastifyInstance,
  ctx: Context,
  name: N,
  handler: Handler<N>,
  options: RouteOptions = {},
) => {
  const spec: RouteSpec = routes[name];
  const paths = [spec.path, ...(routeAliases[name] ?? [])];
  const bodyOptions = { strict: options.strict ?? false };
  for (const url of paths) {
    app.route({
      method: spec.method,
      url,
      bodyLimit: spec.bodyLimit ?? ACCOUNT_BODY_LIMIT,
      schema: {
        operationId: url === spec.path ? name : `${name}Alias`,
        summary: spec.summary,
        tags: options.tags ?? [spec.host],
        ...(spec.body ? { body: objectSchema(spec.body) } : {}),
        ...(spec.query ? { querystring: objectSchema(spec.query) } : {}),
        ...(spec.params ? { params: objectSchema(spec.params) } : {}),
        response: responseSchemas(spec),
        ...(spec.auth === 'token' || spec.auth === 'operator' ? { security: [{ bearer: [] }, { cookie: [] }] } : {}),
      },
      handler: async (request, reply) => {
        // Who is calling comes first: an anonymous or blocked caller learns nothing from validation.
        const session = await resolveSession(ctx, name, spec, request);
        // A pupil still on the card's password, or staff past the password policy, may only change it
        // (services/sessions/password-choice.ts).
        if (session && spec.auth !== 'optional') {
          const refusal = refusedBeforePasswordChange(ctx, name, session.user);
          if (refusal !== undefined) throw new ApiError(refusal);
        }
        const body = parseFields(spec.body, request.body, bodyOptions);
        const query = spec.query ? parseFields(spec.query, request.query, QUERY_STRING) : noFields();
        const params = spec.params ? parseFields(spec.params, request.params, QUERY_STRING) : noFields();
        const result = await handler(
          new CallInput(ctx, request, reply, session, body, query, params) as unknown as RouteInput<N>,
        );
        if (spec.status === 204 || result === undefined) return reply.code(204).send();
        if (result instanceof StreamedJson)
          return reply.code(200).type('application/json; charset=utf-8').send(result.stream);
        return reply.code(200).send(result);
      },
    });
  }
};

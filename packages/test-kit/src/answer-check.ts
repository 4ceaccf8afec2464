/**
 * Holds every answer a test server sends to its route's response schema (the API docs' promise):
 * a success with no schema for its status, a body (success or documented refusal) the schema does
 * not describe, or a field the schema lacks (objects are read as closed here, though the docs leave
 * them open) is a mismatch.
 * Only reads: the answer goes out as it was.
 */
import { answerProblem } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface AnswerMismatch {
  /** `GET /admin/users/:id 200` */
  answer: string;
  problem: string;
}

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const mediaType = (reply: FastifyReply) =>
  String(reply.getHeader('content-type') ?? '')
    .split(';')[0]
    ?.trim() ?? '';

/** The protocol's answer check (`answerProblem`, closed objects) on every answer a test server sends. */
export const answerChecker = () => {
  /** What is wrong with this answer, if anything. */
  const problemOf = (request: FastifyRequest, reply: FastifyReply, payload: unknown): string | undefined => {
    const schema = request.routeOptions.schema as JsonSchema | undefined;
    const responses = schema?.response as Record<string, JsonSchema> | undefined;
    if (responses === undefined) return 'the operation documents no answer';
    const status = reply.statusCode;
    const described = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
    // Refusals are held to the error shape where an operation documents it.
    if (described === undefined) return status >= 400 ? undefined : `no answer documented for status ${status}`;
    if (status === 204 || (status >= 300 && status < 400)) return undefined;
    const media = mediaType(reply);
    if (isObject(described.content)) {
      return Object.hasOwn(described.content, media) ? undefined : `answered ${media}, documented otherwise`;
    }
    if (media !== 'application/json') return `answered ${media}, documented as JSON`;
    // A streamed answer (a long export) is read by its own tests, not held here.
    if (typeof (payload as { pipe?: unknown } | null)?.pipe === 'function') return undefined;
    return answerProblem(described, JSON.parse(String(payload)), { closed: true });
  };

  const mismatches: AnswerMismatch[] = [];
  /** `METHOD url status` of every answer checked, for a count of what the tests reach. */
  const checked = new Set<string>();
  return {
    mismatches,
    checked,
    /** Checks the successes of every operation the API docs list (hidden routes are not API). */
    install(app: FastifyInstance) {
      app.addHook('onSend', async function checkAnswerShape(request, reply, payload) {
        const url = request.routeOptions.url;
        const schema = request.routeOptions.schema as JsonSchema | undefined;
        if (url === undefined || schema?.hide === true) return payload;
        checked.add(`${request.method} ${url} ${reply.statusCode}`);
        let problem: string | undefined;
        try {
          problem = problemOf(request, reply, payload);
        } catch (error) {
          problem = `the schema cannot be checked: ${String(error)}`;
        }
        if (problem !== undefined) {
          mismatches.push({ answer: `${request.method} ${url} ${reply.statusCode}`, problem });
        }
        return payload;
      });
    },
  };
};

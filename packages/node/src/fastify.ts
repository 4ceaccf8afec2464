/**
 * `@edupass/node/fastify`: the Fastify guard, with `request.edupass` typed on Fastify's own
 * `FastifyRequest` (declaration merging). A separate entry, so that a site without Fastify never
 * type-checks an augmentation of a module it does not have.
 */
import type { EduPassClaims } from './verifier.ts';

export { edupassFastify, type GuardOptions } from './middleware.ts';
export type { EduPassClaims } from './verifier.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified token's claims, once `edupassFastify` let the request through. */
    edupass?: EduPassClaims;
  }
}

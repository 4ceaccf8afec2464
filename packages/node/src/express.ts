/**
 * `@edupass/node/express`: the Express guard, with `req.edupass` typed on Express's `Request`
 * (declaration merging into the global `Express.Request` that @types/express builds on).
 */
import type { EduPassClaims } from './verifier.ts';

export { edupassExpress, type GuardOptions } from './middleware.ts';
export type { EduPassClaims } from './verifier.ts';

declare global {
  namespace Express {
    interface Request {
      /** The verified token's claims, once `edupassExpress` let the request through. */
      edupass?: EduPassClaims;
    }
  }
}

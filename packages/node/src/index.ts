/**
 * @edupass/node: EduPass for a site's own backend. Verify access tokens from the JWKS, check a
 * session online (token introspection), guard Fastify, Express and node:http routes, and verify
 * webhook deliveries. See README.md, "Connect your site's backend".
 */

export {
  type EduClaims,
  type EduClassRole,
  type EduSchoolRole,
  type EduWebhookEvent,
  isEduEvent,
  isTeacherOf,
  readEduClaims,
} from './edu.ts';
export {
  EduPassAuthError,
  type EduPassAuthErrorCode,
  isEduPassAuthError,
  type WebhookErrorCode,
  WebhookVerificationError,
} from './errors.ts';
export type { IntrospectionOptions, IntrospectionResult } from './introspection.ts';
export {
  authenticateRequest,
  edupassExpress,
  edupassFastify,
  edupassNode,
  type FastifyLikeReply,
  type FastifyLikeRequest,
  type GuardOptions,
  type WithEduPass,
} from './middleware.ts';
export {
  createVerifier,
  type EduPassClaims,
  type EduPassTokenPayload,
  type Verifier,
  type VerifierOptions,
} from './verifier.ts';
export { signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS, type WebhookVerifyOptions } from './webhooks.ts';

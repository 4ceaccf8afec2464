/**
 * What the OpenID Connect provider (oidc/) reads and writes, as the one door it has to the database:
 * its clients (the applications), its models (sessions, grants, codes…), EduPass sessions it links to,
 * and the users it names. oidc/ never imports store/ (docs/architecture.md, Layers; biome.json holds it).
 */
export type { ApplicationRow } from '../../store/identity/applications.ts';
export {
  findModel,
  findTokenWithGrantAndSession,
  grantIdOf,
  revokeGrant,
  revokeModelsOfGrant,
} from '../../store/identity/oidc-models.ts';
export { consumeModel, destroyModel, upsertModel } from '../../store/identity/oidc-writes.ts';
export { findLiveSessionByKey, sessionKey, sessionStartedAt } from '../../store/sessions/sessions.ts';
export {
  ConsumedTwice,
  deleteModel,
  forgetAllReadAhead,
  holdConsumption,
  providerRequest,
  readAhead,
  readAheadRow,
  revokeReplayed,
  saveModel,
  writeHeldBefore,
} from './provider-writes.ts';
export { findApplication, findUserById, withRequestReads } from './request-reads.ts';

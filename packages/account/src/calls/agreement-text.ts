import {
  type AgreementText,
  type RetentionStatement,
  readAgreementRoute,
  retentionStatementRoute,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall } from '../call.ts';
import { object } from '../shapes.ts';

/**
 * A published agreement's text, for reading before consent: `version` as listed by `listAgreements`
 * (the one in effect when left out), in `lang` (`zh-CN` or `en`) when the version has it (else the
 * browser's language). An unknown code or version rejects with NOT_FOUND.
 */
export const readAgreement: Call<{ code: string; version?: number; lang?: string }, AgreementText> =
  /* @__PURE__ */ defineCall(anonymous, readAgreementRoute, object);

/**
 * The privacy notice's retention statement: each kind of record and how long it is kept, from the
 * server's running settings, in `lang` (`zh-CN` or `en`).
 */
export const retentionStatement: Call<{ lang?: string }, RetentionStatement> = /* @__PURE__ */ defineCall(
  anonymous,
  retentionStatementRoute,
  object,
);

/**
 * The operator console's calls: operators only; each change is recorded in the audit log.
 *
 * Adding an admin route:
 * 1. Describe its answer with the schema builder (answer-schema.ts) beside the others of its area,
 *    e.g. in admin-answers.ts or a new `admin-<area>-answers.ts`; export the type with `Answer<…>`:
 *      export const webhookAnswer = object({ id: integer(), url: text() }, { secret: text() });
 *      export type Webhook = Answer<typeof webhookAnswer>;
 * 2. Add the route with `operatorRoute(method, path, summary, answer, { body, query, params })`:
 *    the path is under `/admin/`, the answer is the shape above (or `list(…)` of it), `NO_CONTENT`
 *    for a call that answers 204. In its own `admin-<area>-routes.ts` for a new area, spread into
 *    `adminRoutes` below.
 * 3. On the server, `defineRoute(app, ctx, 'name', handler, { tags: ['admin'] })`: the handler gets
 *    the parsed fields and the operator's session, and must return that answer's type. The API docs
 *    show the schema, and the server's answer check (routes/answer-schemas.test.ts) holds the real
 *    answers to it.
 */

import { addressBookAdminRoutes } from './address-book-routes.ts';
import {
  agreementVersionAnswer,
  apiFailureRatesAnswer,
  auditEntryAnswer,
  auditExportAnswer,
  durationsAnswer,
  errorCountsAnswer,
  eventCountsAnswer,
  operatorSelfAnswer,
  operatorSummaryAnswer,
  uniquesAnswer,
  userDetailAnswer,
  userPageAnswer,
  vitalsP75Answer,
} from './admin-answers.ts';
import { list, NO_CONTENT } from './answer-schema.ts';
import { applicationRoutes } from './application-routes.ts';
import { consoleRoutes } from './console-routes.ts';
import { dataExportAnswer, dataExportsAnswer, exportLanguage } from './data-export-routes.ts';
import { eduAdminRoutes } from './edu-admin-routes.ts';
import { consentAdminRoutes } from './guardian-checks-routes.ts';
import { operatorRoute as admin, windowQuery } from './operator-route.ts';
import { rightsAdminRoutes } from './rights-routes.ts';
import { int, MS_RANGE, opt, s } from './route-fields.ts';
import type { RouteSpec } from './routes.ts';
import { USAGE_LIMITS } from './usage.ts';
import { webhookRoutes } from './webhook-routes.ts';

const userIdParam = { id: int() } as const;

/** The usage figures and monitor totals of a product over a window (services/usage/window.ts reads it). */
export const usageAdminRoutes = {
  usageEvents: admin('GET', 'usage/events', 'Event counts per key per hour or day', eventCountsAnswer, {
    query: { ...windowQuery, bucket: opt(s(8)), key: opt(s(USAGE_LIMITS.keyMax)) },
  }),
  usageUniques: admin('GET', 'usage/uniques', 'Unique devices and users', uniquesAnswer, { query: windowQuery }),
  usageDurations: admin('GET', 'usage/durations', 'Duration percentiles of a timed event', durationsAnswer, {
    query: { ...windowQuery, key: s(USAGE_LIMITS.keyMax) },
  }),
  monitorErrors: admin('GET', 'monitor/errors', 'JS error counts by message', errorCountsAnswer, {
    query: windowQuery,
  }),
  monitorApi: admin('GET', 'monitor/api', 'API failure rate by path', apiFailureRatesAnswer, { query: windowQuery }),
  monitorVitals: admin('GET', 'monitor/vitals', 'Web-vitals p75', vitalsP75Answer, { query: windowQuery }),
} as const;

export const adminRoutes = {
  searchUsers: admin('GET', 'users', 'Find users by phone, e-mail, username, nickname or id', userPageAnswer, {
    query: { q: opt(s(64)), cursor: opt(int()), limit: opt(int()) },
  }),
  getUser: admin(
    'GET',
    'users/:id',
    "A user's identities, agreements signed and sessions (logged; a minor's needs `reason`, and an approval where required)",
    userDetailAnswer,
    { params: userIdParam, query: { reason: opt(s(500)) } },
  ),
  blockUser: admin('POST', 'users/:id/block', 'Block a user and end their sessions', NO_CONTENT, {
    params: userIdParam,
  }),
  unblockUser: admin('POST', 'users/:id/unblock', 'Unblock a user', NO_CONTENT, { params: userIdParam }),
  deleteUser: admin('DELETE', 'users/:id', 'Delete a user and everything naming them', NO_CONTENT, {
    params: userIdParam,
  }),
  revokeUserSessions: admin('POST', 'users/:id/sessions/revoke', 'End every session of a user', NO_CONTENT, {
    params: userIdParam,
  }),
  requestUserExport: admin(
    'POST',
    'users/:id/exports',
    "Export a user's data on their request (audited and logged; a minor's needs `reason`, and an approval where required)",
    dataExportAnswer,
    {
      params: userIdParam,
      body: { ...exportLanguage, reason: opt(s(500)) },
    },
  ),
  listUserExports: admin(
    'GET',
    'users/:id/exports',
    "The exports an operator asked for of a user's data",
    dataExportsAnswer,
    {
      params: userIdParam,
    },
  ),
  listAllAgreements: admin('GET', 'agreements', 'Every version of every agreement', list(agreementVersionAnswer)),
  publishAgreement: admin('POST', 'agreements', 'Publish a new version of an agreement', agreementVersionAnswer, {
    /** `title`/`content` the Chinese text, `title_en`/`content_en` the English one: at least one whole. */
    body: {
      code: s(64),
      title: opt(s(128)),
      content: opt({ ...s(100_000), multiline: true }),
      title_en: opt(s(128)),
      content_en: opt({ ...s(100_000), multiline: true }),
      url: opt(s(1024)),
      effective_at: opt({ ...int(), ...MS_RANGE }),
    },
  }),
  listAudit: admin(
    'GET',
    'audit',
    'What operators did, newest first; `before` an entry id pages back',
    list(auditEntryAnswer),
    {
      query: {
        limit: opt(int()),
        before: opt(int()),
        action: opt(s(64)),
        /** A group of actions (`AUDIT_GROUPS`), e.g. `edu-bulk`. */
        group: opt(s(32)),
        operator: opt(int()),
      },
    },
  ),
  exportAuditLog: admin(
    'GET',
    'audit/export',
    "The audit log (`log=audit`) or the log of reads of people's records (`log=reads`) as CSV, oldest first, within `from`..`to`; the caller's own rows left out; the export is itself audited",
    auditExportAnswer,
    { query: { log: s(16), from: opt({ ...int(), ...MS_RANGE }), to: opt({ ...int(), ...MS_RANGE }) } },
  ),
  listOperators: admin(
    'GET',
    'operators',
    'Every operator: id, phone and name (for the audit filter)',
    list(operatorSummaryAnswer),
  ),
  operatorSelf: admin('GET', 'me', "The signed-in operator's duties: what their console shows", operatorSelfAnswer),
  resetSecondFactor: admin(
    'POST',
    'users/:id/second-factor/reset',
    "Remove a user's second factors (audited)",
    NO_CONTENT,
    { params: userIdParam },
  ),
  ...consoleRoutes,
  ...usageAdminRoutes,
  ...webhookRoutes,
  ...applicationRoutes,
  ...eduAdminRoutes,
  ...addressBookAdminRoutes,
  ...consentAdminRoutes,
  ...rightsAdminRoutes,
} as const satisfies Record<string, RouteSpec>;

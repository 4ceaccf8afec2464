/**
 * The privacy notice's retention statement (COPPA as amended in 2025, § 312.10; PIPL art. 17): each kind
 * of record EduPass keeps and how long, generated from the running server's settings, in the reader's
 * language. Public (no sign-in): the web client shows it at `/privacy/retention`, linked from every
 * agreement's text. Beside the spec's `privacy` account path, as the web client's own call.
 */
import { type Answer, list, nullable, number, object, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { accountRoute, opt, s } from './route-fields.ts';

/** The web client's page of the statement. */
export const RETENTION_PAGE_PATH = '/privacy/retention';

export const retentionStatementAnswer = object({
  /** The language the words are in (`zh-CN` or `en`). */
  lang: text(),
  records: list(
    object({
      /** A stable name of the kind of record (`account`, `audit_log`…). */
      kind: text(),
      /** What the record is, in words. */
      record: text(),
      /** How long it is kept, in words. */
      kept: text(),
      /** The same in days, where it is a number of days (null: until an event, such as the account's end). */
      days: nullable(number()),
    }),
  ),
});

export const retentionStatementRoute = /* @__PURE__ */ accountRoute('GET', 'privacy/retention', 'none', {
  query: { lang: /* @__PURE__ */ opt(/* @__PURE__ */ s(16)) },
});

export const retentionTable = {
  retentionStatement: described(
    retentionStatementRoute,
    'How long each kind of record is kept, from the running settings (the privacy notice)',
    retentionStatementAnswer,
  ),
};

export type RetentionStatement = Answer<typeof retentionStatementAnswer>;

/**
 * A copy of a person's data (PIPL art. 45): asked for by the person in the account centre (after a
 * fresh proof), by a guardian for a linked child, or by an operator on request (audited). A background
 * job builds a zip; its link works once, for DATA_EXPORT_LINK_HOURS. docs/data-rights.md.
 */
import { type Answer, integer, list, nullable, object, oneOf, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { eduRoute } from './edu-routes.ts';
import { opt, s } from './route-fields.ts';

/** `queued` (being built), `ready` (the link works), `used` (downloaded once), `expired`, `failed`. */
export const EXPORT_STATES = ['queued', 'ready', 'used', 'expired', 'failed'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** Where the zip is downloaded, once: `<PUBLIC_URL>/exports/<secret>`. */
export const EXPORT_DOWNLOAD_PATH = '/exports';

export const dataExportAnswer = object({
  id: integer(),
  state: oneOf(...EXPORT_STATES),
  /** Milliseconds since the epoch. */
  requested_at: integer(),
  /** Until when the link works (once); null until the zip is ready. */
  link_expires_at: nullable(integer()),
  /** The single-use link, while it works; shown only to whoever asked. */
  download_url: nullable(text()),
});

export const dataExportsAnswer = object({ exports: list(dataExportAnswer) });

const childId = { id: { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } } as const;
/** The README's language (`zh-CN` or `en`); without it, the browser's. */
export const exportLanguage = { lang: /* @__PURE__ */ opt(/* @__PURE__ */ s(16)) };

// Beside the person's other data rights (`/edu/me/access-log`): called by the web client's account
// centre, not by the account SDK, which keeps to the spec's account routes.
export const requestExportRoute = /* @__PURE__ */ eduRoute('POST', 'me/exports', 'token', { body: exportLanguage });
export const listExportsRoute = /* @__PURE__ */ eduRoute('GET', 'me/exports', 'token');
export const requestChildExportRoute = /* @__PURE__ */ eduRoute('POST', 'guardian/children/:id/exports', 'token', {
  params: childId,
  body: exportLanguage,
});
export const listChildExportsRoute = /* @__PURE__ */ eduRoute('GET', 'guardian/children/:id/exports', 'token', {
  params: childId,
});

/** The data-export routes in the route table (routes.ts). */
export const dataExportTable = {
  requestExport: described(
    requestExportRoute,
    'Ask for a copy of my data (needs a recent proof); built in the background',
    dataExportAnswer,
  ),
  listExports: described(listExportsRoute, 'My data exports, with the link of one that is ready', dataExportsAnswer),
  requestChildExport: described(
    requestChildExportRoute,
    "A guardian asks for a copy of a linked child's data",
    dataExportAnswer,
  ),
  listChildExports: described(
    listChildExportsRoute,
    "The exports a guardian asked for of a linked child's data",
    dataExportsAnswer,
  ),
};

export type DataExport = Answer<typeof dataExportAnswer>;
export type DataExports = Answer<typeof dataExportsAnswer>;

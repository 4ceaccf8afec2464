/** The operator's part of the education layer: schools, teacher approvals and quotas (`/admin/edu/…`). */
import {
  type Answer,
  anything,
  boolean,
  integer,
  list,
  NO_CONTENT,
  nullable,
  number,
  object,
  text,
} from './answer-schema.ts';
import { schoolAnswer, teacherRequestAnswer } from './edu-answers.ts';
import { operatorRoute as admin } from './operator-route.ts';
import { int, opt, s } from './route-fields.ts';

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;
/** A school's sign-in connector as the console shows it (docs/education.md: settings and mapping). */
export const schoolConnectorAnswer = object({
  id: integer(),
  school_id: integer(),
  code: text(),
  kind: text(),
  name: text(),
  settings: anything(),
  mapping: anything(),
  enabled: boolean(),
});
const anyValue = { type: 'any', required: true } as const;

/** The largest roster upload, base64 (a 20 MiB zip, the server's bound on a roster zip, and some). */
export const ROSTER_UPLOAD_MAX = 28 * 1024 * 1024;

/**
 * The kinds of school sign-in connector: CAS, a SAML federation (CARSI), an OAuth2 / OIDC platform,
 * and the school's work app (WeCom or DingTalk: QR-code login, and silently inside the app).
 */
export const SCHOOL_CONNECTOR_KINDS = ['cas', 'saml', 'oidc', 'workapp'] as const;
export type SchoolConnectorKind = (typeof SCHOOL_CONNECTOR_KINDS)[number];

/** The vendors of a `workapp` connector. */
export const WORK_APP_VENDORS = ['wecom', 'dingtalk'] as const;
export type WorkAppVendor = (typeof WORK_APP_VENDORS)[number];

/**
 * Presets of an `oidc` connector: the generic OpenID Connect and OAuth2 ones, and configuration
 * shapes for the national smart education platform and provincial or city education clouds.
 */
export const OIDC_PRESET_NAMES = ['oidc', 'oauth2', 'smartedu', 'edu-cloud'] as const;
export type OidcPresetName = (typeof OIDC_PRESET_NAMES)[number];

/**
 * The settings a preset's platform does not publish, which the operator must ask the platform for
 * (the console asks for them as required): the national platform publishes its authorization and
 * token requests, not where or how user information is read.
 */
export const OIDC_PRESET_ASKS: Readonly<Record<OidcPresetName, readonly string[]>> = {
  oidc: [],
  oauth2: [],
  smartedu: ['userinfo_endpoint'],
  'edu-cloud': ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint'],
};

/**
 * Why a roster row is left out, each with the sentence the console and the command line show (the
 * row's file, line and column say where).
 */
export const ROSTER_REFUSALS = {
  missing_value: 'A required value is empty.',
  duplicate_id: 'This id is already used by an earlier row of the file.',
  unknown_org: 'The school it names is not in the file and was not imported before.',
  unknown_class: 'The class it names is not in the file and was not imported before.',
  unknown_user: 'The person it names is not in the file and was not imported before.',
  role_not_imported: 'Only pupils and teachers are imported; this role is left out.',
  grade: 'The grade is not one this import reads (KG, 1 to 13, PS, UG, or 一年级 to 高三).',
  name: 'The name is empty or not a person’s name.',
  no_class: 'A pupil must be in a class of the file: no enrollment names one.',
  teacher_without_account: 'No EduPass account has this teacher’s phone or e-mail: they sign up first.',
  role_mismatch: 'The role does not match the account: a pupil account cannot be a teacher, or the other way.',
  status: 'The status is not active or tobedeleted.',
  org_refused: 'The school it names is in the file, but its row was refused.',
  class_refused: 'The class it names is in the file, but its row was refused.',
  user_refused: 'The person it names is in the file, but their row was refused.',
  class_name_taken: 'Another class of the school has this name in this school year.',
} as const;
export type RosterRefusalReason = keyof typeof ROSTER_REFUSALS;

/** The refused row another row depends on (`org_refused`, `class_refused`, `user_refused`). */
const rosterRefusalCause = object({
  /** `school`, `class` or `person`. */
  kind: text(),
  /** Its name or title in the file ('' when the row gives none). */
  name: text(),
  file: text(),
  line: integer(),
  column: text(),
  reason: text(),
});

/** The cause in English: `class 3班 (classes.csv line 4) was refused: The grade is not one…`. */
export const rosterCauseText = (cause: Answer<typeof rosterRefusalCause>) =>
  `${cause.kind}${cause.name ? ` ${cause.name}` : ''} (${cause.file} line ${cause.line}) was refused: ${
    ROSTER_REFUSALS[cause.reason as RosterRefusalReason] ?? cause.reason
  }`;

/**
 * A roster import (docs/education.md, "Roster import"): what confirming does or did — counts, up to
 * 200 named items per kind and action, up to 500 refused rows (file, line, column, reason) — and the
 * schools it is held for (it removes more than `hold_percent` of their listed people).
 */
export const rosterJobAnswer = object({
  id: integer(),
  /** `preview`, `held` or `applied`. */
  status: text(),
  /** `oneroster` or `template`, or the address book it was read from: `wecom`, `dingtalk`. */
  format: text(),
  /** `utf-8`, or `gb18030` when the file was GBK/GB18030 (Chinese Excel). */
  encoding: text(),
  school_id: nullable(integer()),
  created_at: integer(),
  applied_at: nullable(integer()),
  rows: integer(),
  /** Each file's mode: `bulk`, `delta` or `absent`. */
  modes: object({ orgs: text(), classes: text(), users: text(), enrollments: text() }),
  counts: object({
    schools_created: integer(),
    schools_matched: integer(),
    schools_changed: integer(),
    classes_created: integer(),
    classes_changed: integer(),
    classes_removed: integer(),
    pupils_created: integer(),
    teachers_matched: integer(),
    people_changed: integer(),
    people_removed: integer(),
    memberships_created: integer(),
    memberships_changed: integer(),
    memberships_removed: integer(),
    /** Address books: guardians waiting to confirm by an SMS code to the phone the school recorded. */
    guardians_pending: integer(),
    /** Address books: guardians the book gives no phone for ("guardian to confirm" with the school's code). */
    guardians_to_confirm: integer(),
    guardians_changed: integer(),
    guardians_removed: integer(),
    refused: integer(),
    /** Blank lines among the rows, skipped. */
    blank_lines: integer(),
  }),
  /** `kind`: school, class, pupil, teacher, person; `action`: create, match, change, remove. */
  /** Classes carry their grade and school year, so the preview names them as a chooser does. */
  items: list(
    object({ kind: text(), action: text(), name: text(), detail: text() }, { grade: integer(), school_year: text() }),
  ),
  refused: list(
    object({ file: text(), line: integer(), column: text(), reason: text() }, { cause: rosterRefusalCause }),
  ),
  /** The blank lines skipped (up to 500), by file and line. */
  blank_lines: list(object({ file: text(), line: integer() })),
  holds: list(
    object({ school_id: integer(), school: text(), removed: integer(), listed: integer(), percent: number() }),
  ),
  hold_percent: integer(),
});
const batches = { type: 'integer', required: true, min: 0, max: 10_000 } as const;

export const eduAdminRoutes = {
  listSchools: admin(
    'GET',
    'edu/schools',
    'Schools with their daily pupil-batch quota, newest first; `before` a school id pages back (`limit` at most 1000, the default)',
    list(schoolAnswer),
    { query: { before: opt(id), limit: opt(int()) } },
  ),
  addSchool: admin('POST', 'edu/schools', 'Add a school, optionally naming its first school admin', schoolAnswer, {
    body: { name: s(128), admin_user_id: opt(id), daily_batches: opt(batches) },
  }),
  setSchoolQuota: admin('PATCH', 'edu/schools/:id', "Set a school's pupil batches a day", NO_CONTENT, {
    params: { id },
    body: { daily_batches: batches },
  }),
  listTeacherRequests: admin(
    'GET',
    'edu/teacher-requests',
    "Teachers of every school or of `school_id`, those waiting for approval first, each part newest first; `before` the last row's `cursor` pages on (`limit` at most 500, the default)",
    list(teacherRequestAnswer),
    { query: { before: opt(s(80)), limit: opt(int()), school_id: opt(id) } },
  ),
  approveTeacherByOperator: admin(
    'POST',
    'edu/schools/:id/teachers/:user_id/approve',
    'Approve a teacher of a school',
    NO_CONTENT,
    { params: { id, user_id: id } },
  ),
  refuseTeacherByOperator: admin(
    'POST',
    'edu/schools/:id/teachers/:user_id/refuse',
    "Refuse a teacher's pending request to teach at a school",
    NO_CONTENT,
    { params: { id, user_id: id } },
  ),
  listSchoolConnectors: admin(
    'GET',
    'edu/connectors',
    "Every school's sign-in connector (CAS, SAML, OAuth2/OIDC) with its settings (no secrets) and attribute mapping",
    list(schoolConnectorAnswer),
  ),
  addSchoolConnector: admin(
    'POST',
    'edu/schools/:id/connectors',
    'Add a sign-in connector to a school',
    schoolConnectorAnswer,
    {
      params: { id },
      // Line breaks allowed: a SAML connector's settings carry a PEM certificate.
      body: {
        code: s(40),
        kind: s(16),
        name: s(128),
        settings: { ...anyValue, multiline: true },
        mapping: opt(anyValue),
      },
    },
  ),
  editSchoolConnector: admin(
    'PATCH',
    'edu/connectors/:id',
    "Change a school's sign-in connector: switch it off (its sign-ins are refused) or on again, and/or set its name and the settings given (the others stay; its code and kind cannot change; an OAuth2 client secret left blank stays as sealed)",
    schoolConnectorAnswer,
    {
      params: { id },
      body: {
        enabled: { type: 'boolean', required: false },
        name: opt(s(128)),
        settings: { ...anyValue, required: false, multiline: true },
      },
    },
  ),
  setSchoolConnectorMapping: admin(
    'PUT',
    'edu/connectors/:id/mapping',
    "Set a school sign-in connector's attribute mapping (what it leaves out takes the defaults)",
    schoolConnectorAnswer,
    { params: { id }, body: { mapping: anyValue } },
  ),
  previewRosterImport: admin(
    'POST',
    'edu/roster-imports',
    'Upload a roster (OneRoster 1.2 CSV zip or the Chinese-header CSV template, base64) and see what it would do',
    rosterJobAnswer,
    { body: { file_base64: s(ROSTER_UPLOAD_MAX), school_id: opt(id) }, bodyLimit: ROSTER_UPLOAD_MAX + 4096 },
  ),
  getRosterImport: admin('GET', 'edu/roster-imports/:id', 'A roster import and its preview', rosterJobAnswer, {
    params: { id },
  }),
  confirmRosterImport: admin(
    'POST',
    'edu/roster-imports/:id/confirm',
    'Apply a previewed roster import; one held for its removals needs accept_removals',
    rosterJobAnswer,
    { params: { id }, body: { accept_removals: opt({ type: 'boolean', required: true }) } },
  ),
} as const;

/** A roster import as the console shows it. */
export type RosterJob = Answer<typeof rosterJobAnswer>;

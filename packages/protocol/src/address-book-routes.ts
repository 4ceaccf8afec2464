/**
 * Schools' home-school address books (WeCom, DingTalk) as roster sources, and the guardians they list:
 * the operator adds a school's app and a schedule and syncs (a roster import to confirm); a guardian
 * the book lists confirms with an SMS code to the phone the school recorded. docs/education.md,
 * "Address books".
 */
import { type Answer, anything, integer, list, NO_CONTENT, nullable, object, oneOf, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { rosterJobAnswer } from './edu-admin-routes.ts';
import { eduRoute as route } from './edu-routes.ts';
import { operatorRoute as admin } from './operator-route.ts';
import { opt, ruled, s } from './route-fields.ts';

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/** A school's address book as the console shows it (never its secret). */
export const addressBookAnswer = object({
  id: integer(),
  school_id: integer(),
  /** `wecom` or `dingtalk`. */
  vendor: text(),
  /** WeCom's corpid, or DingTalk's appkey. */
  app_id: text(),
  /** `off`, `hourly` or `daily`. */
  schedule: text(),
  next_sync_at: nullable(integer()),
  /** The last sync: `at`, `took_ms`, `calls`, `retried`, `job_id`, `status` and `counts`; or `error`. */
  last_report: nullable(anything()),
});

export const addressBookAdminRoutes = {
  listAddressBooks: admin(
    'GET',
    'edu/address-books',
    "Schools' home-school address books (WeCom, DingTalk), their schedules and last syncs",
    list(addressBookAnswer),
  ),
  addAddressBook: admin(
    'POST',
    'edu/schools/:id/address-books',
    "Add a school's home-school address book as a roster source (the app's secret is sealed)",
    addressBookAnswer,
    {
      params: { id },
      body: { vendor: s(16), app_id: s(128), secret: s(256), schedule: opt(s(16)) },
    },
  ),
  editAddressBook: admin(
    'PATCH',
    'edu/address-books/:id',
    "Set an address book's schedule (`off`, `hourly`, `daily`), or its app and secret",
    addressBookAnswer,
    { params: { id }, body: { schedule: opt(s(16)), app_id: opt(s(128)), secret: opt(s(256)) } },
  ),
  syncAddressBook: admin(
    'POST',
    'edu/address-books/:id/sync',
    'Read an address book now: a roster import to preview and confirm (a removal holds it)',
    rosterJobAnswer,
    { params: { id } },
  ),
} as const;

/** Guardians the schools' address books list for the caller's phone, waiting for the caller. */
export const schoolInvitesAnswer = object({
  invites: list(
    object({
      id: integer(),
      child_id: integer(),
      /** The pupil's name as the school's book gives it. */
      child_name: text(),
      school: text(),
      relation: text(),
      /** The phone the school recorded, masked (138****1234). */
      phone: text(),
    }),
  ),
});

export const schoolInvitesRoute = route('GET', 'guardian/school-invites', 'token');
export const schoolInviteCodeRoute = route('POST', 'guardian/school-invites/:id/code', 'token', {
  params: { id },
  status: 204,
});
export const confirmSchoolInviteRoute = route('POST', 'guardian/school-invites/:id/confirm', 'token', {
  params: { id },
  body: { captcha: /* @__PURE__ */ ruled('captcha') },
});

export const schoolInviteTable = {
  schoolInvites: described(
    schoolInvitesRoute,
    "Pupils whose school's address book lists the caller's phone as a guardian, waiting to be confirmed",
    schoolInvitesAnswer,
  ),
  schoolInviteCode: described(
    schoolInviteCodeRoute,
    'Send a code by SMS to the phone the school recorded, to confirm being that pupil’s guardian',
    NO_CONTENT,
  ),
  confirmSchoolInvite: described(
    confirmSchoolInviteRoute,
    "Confirm with the SMS code: the caller becomes the pupil's guardian (a request the child's guardians decide, once the child has one)",
    object({ child_id: integer(), state: oneOf('linked', 'pending'), opens_at: nullable(integer()) }),
  ),
};

export type AddressBook = Answer<typeof addressBookAnswer>;
export type SchoolInvites = Answer<typeof schoolInvitesAnswer>;

/**
 * What each table of the accounts database holds about a person, written once: the rows erasure
 * deletes, or why the table keeps nothing of anyone, or what it keeps for a while and why. Every table
 * has its line (`user-data-map.test.ts` reads the tables from the live schema and fails on one that has
 * none), so a table added later cannot be forgotten by erasure. The usage tables are the events
 * store's (`EventsStore.eraseUser`), which lives here or in ClickHouse.
 */
import type { Kysely } from 'kysely';
import { deleteGuardianLinks } from '../edu/family/guardians.ts';
import { forgetNumberPairs } from '../edu/school/person-keys.ts';
import type { Database } from '../schema.ts';
import { deleteCodesTo } from './codes.ts';

type Db = Kysely<Database>;

/** The person being erased: their id and the addresses that name them in rows keyed by address. */
export interface Person {
  id: number;
  phone: string | null;
  email: string | null;
}

export type TableRule =
  /**
   * Deletes the person's rows (inside the erasure's transaction); `keeps` names a column of other
   * people's rows that may still hold the person's number, and why.
   */
  | { erase: (db: Db, person: Person) => Promise<unknown>; keeps?: Record<string, string> }
  /** Holds nothing about any one person. */
  | { none: string }
  /** Keeps something naming the person (by number only) until its own retention ends, for this reason. */
  | { kept: string }
  /** Erased by the events store. */
  | { events: true };

const addresses = (person: Person) => [person.phone, person.email].filter((a): a is string => a !== null);

const byUserId =
  <
    T extends
      | 'agreement_signatures'
      | 'user_oauths'
      | 'totp_secrets'
      | 'passkeys'
      | 'recovery_codes'
      | 'password_history',
  >(
    table: T,
  ) =>
  (db: Db, person: Person) =>
    db
      .deleteFrom(table as 'passkeys')
      .where('user_id', '=', person.id)
      .execute();

const eduByUserId =
  <T extends 'school_members' | 'class_members' | 'pupil_accounts' | 'sign_in_badges'>(table: T) =>
  (db: Db, person: Person) =>
    db
      .deleteFrom(table as 'sign_in_badges')
      .where('user_id', '=', person.id)
      .execute();

/** The webhook events about the person (`webhook_events.user_id`, by its index). */
const eventsAbout = (db: Db, person: Person) =>
  db.selectFrom('webhook_events').select('webhook_events.id').where('user_id', '=', person.id);

/** The number of the user's last webhook event: erased once `user.deleted`, their last, is recorded. */
export const forgetWebhookSequence = (db: Db, userId: number) =>
  db.deleteFrom('webhook_sequences').where('user_id', '=', userId).execute();

/** Every grant, token and provider session the applications hold for the user (also when the account is frozen). */
export const eraseApplicationGrants = (db: Db, userId: number) =>
  db.deleteFrom('oidc_models').where('account_id', '=', String(userId)).execute();

/** Every table of the accounts database, in the order erasure runs (the user row last). */
export const TABLE_RULES: Record<string, TableRule> = {
  refresh_tokens: {
    erase: (db, person) =>
      db
        .deleteFrom('refresh_tokens')
        .where('session_id', 'in', (eb) => eb.selectFrom('sessions').select('id').where('user_id', '=', person.id))
        .execute(),
  },
  sessions: { erase: (db, person) => db.deleteFrom('sessions').where('user_id', '=', person.id).execute() },
  agreement_signatures: { erase: byUserId('agreement_signatures') },
  user_oauths: { erase: byUserId('user_oauths') },
  totp_secrets: { erase: byUserId('totp_secrets') },
  passkeys: { erase: byUserId('passkeys') },
  recovery_codes: { erase: byUserId('recovery_codes') },
  password_history: { erase: byUserId('password_history') },
  codes: { erase: (db, person) => deleteCodesTo(db, addresses(person)) },
  tickets: {
    erase: (db, person) =>
      db
        .deleteFrom('tickets')
        .where('subject', 'in', [`user:${person.id}`, ...addresses(person)])
        .execute(),
  },
  outbox: {
    erase: (db, person) =>
      addresses(person).length === 0
        ? Promise.resolve()
        : db.deleteFrom('outbox').where('recipient', 'in', addresses(person)).execute(),
  },
  oidc_models: { erase: (db, person) => eraseApplicationGrants(db, person.id) },
  school_members: { erase: eduByUserId('school_members') },
  class_members: { erase: eduByUserId('class_members') },
  pupil_accounts: {
    erase: eduByUserId('pupil_accounts'),
    keeps: { created_by: "the teacher who created a pupil account, which stays the school's when the teacher goes" },
  },
  sign_in_badges: { erase: eduByUserId('sign_in_badges') },
  school_person_keys: {
    erase: (db, person) => db.deleteFrom('school_person_keys').where('user_id', '=', person.id).execute(),
  },
  school_number_pairs: { erase: (db, person) => forgetNumberPairs(db, person.id) },
  roster_links: {
    erase: (db, person) => db.deleteFrom('roster_links').where('user_id', '=', person.id).execute(),
  },
  school_sign_ins: {
    erase: (db, person) => db.deleteFrom('school_sign_ins').where('user_id', '=', person.id).execute(),
  },
  guardians: { erase: (db, person) => deleteGuardianLinks(db, person.id) },
  guardian_requests: {
    erase: (db, person) =>
      db
        .deleteFrom('guardian_requests')
        .where((eb) => eb.or([eb('child_id', '=', person.id), eb('requester_id', '=', person.id)]))
        .execute(),
    keeps: { decided_by: "the guardian who decided another person's link request, while that request lasts" },
  },
  minor_settings: {
    erase: (db, person) => db.deleteFrom('minor_settings').where('user_id', '=', person.id).execute(),
    keeps: { updated_by: "the guardian who last set a child's minor mode, while the child's account lasts" },
  },
  edu_access_log: {
    // A chained log (admin/audit-chain.ts): a row taken from its middle would break every link after it.
    kept: "reads of records (reader and person by number only, with the fields' names and why): the tamper-evident access log, for ACCESS_LOG_RETENTION_DAYS",
  },
  staff_access_approvals: {
    erase: (db, person) => db.deleteFrom('staff_access_approvals').where('subject_id', '=', person.id).execute(),
    keeps: {
      requested_by: "an operator's request to read another person's record, kept with that person's",
      decided_by: "an operator's decision on another operator's request, kept with that person's",
    },
  },
  webhook_attempts: {
    erase: (db, person) =>
      db
        .deleteFrom('webhook_attempts')
        .where('delivery_id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('webhook_deliveries.id')
            .where('event_id', 'in', eventsAbout(db, person)),
        )
        .execute(),
  },
  webhook_deliveries: {
    erase: (db, person) =>
      db.deleteFrom('webhook_deliveries').where('event_id', 'in', eventsAbout(db, person)).execute(),
  },
  webhook_events: {
    // The events sent about the person go; `user.deleted`, recorded after this, is what sites keep hearing.
    erase: (db, person) => db.deleteFrom('webhook_events').where('user_id', '=', person.id).execute(),
  },
  webhook_sequences: { erase: (db, person) => forgetWebhookSequence(db, person.id) },
  data_exports: {
    // The person's exports, and those they asked for of a child's data (as a guardian): the zips go too.
    erase: (db, person) =>
      db
        .deleteFrom('data_exports')
        .where((eb) => eb.or([eb('user_id', '=', person.id), eb('requester_id', '=', person.id)]))
        .execute(),
  },
  report_people_read: {
    // The person's year is counted already (report_counters' people_read): the count stays.
    erase: (db, person) => db.deleteFrom('report_people_read').where('subject_id', '=', person.id).execute(),
  },
  security_events: {
    erase: (db, person) => db.deleteFrom('security_events').where('user_id', '=', person.id).execute(),
  },
  users: { erase: (db, person) => db.deleteFrom('users').where('id', '=', person.id).execute() },

  guardian_invites: {
    erase: (db, person) =>
      db
        .deleteFrom('guardian_invites')
        .where((eb) => eb.or([eb('child_id', '=', person.id), eb('guardian_id', '=', person.id)]))
        .execute(),
  },
  address_books: {
    kept: "a school's address-book source (the school, its app and schedule): the school's, holding no person",
  },
  roster_jobs: {
    kept: "an operator's roster upload (the uploader by number; the school's rows until it is applied), as evidence of the import beside the audit log",
  },
  admin_audit: {
    kept: "operators' actions (an operator's id, or `user:<id>` as a target): the audit record, for AUDIT_RETENTION_DAYS",
  },
  backchannel_logouts: {
    kept: 'logout notices to applications (the account number), gone once delivered or given up after a day',
  },
  guardian_consents: {
    kept: "guardians' decisions on a child's consent (child and guardian by number only): the evidence of what was agreed, for CONSENT_EVIDENCE_RETENTION_YEARS after the account ends",
  },
  guardian_adult_checks: {
    erase: (db, person) => db.deleteFrom('guardian_adult_checks').where('user_id', '=', person.id).execute(),
  },
  school_agreements: {
    kept: "a school's agreement for the pupils its teachers create (the operator who recorded it, by number): the school's consent, kept as the school's record",
  },
  data_requests: {
    kept: "a person's export, correction, deletion or objection request (the account by number, dates, status): the record that it was answered in time, counted by the yearly report",
  },
  audit_chains: {
    none: 'the heads and anchors of the tamper-evident logs: places and HMACs, naming nobody',
  },
  report_counters: {
    none: "the yearly report's counts per month, figure and age band, role or decision: they stay after erasure, so a year's figures keep the accounts erased since",
  },
  counters: { kept: 'rate-limit windows keyed by address or number, at most a day long, swept when they end' },

  agreements: { none: 'published agreement texts' },
  applications: { none: 'registered applications' },
  schools: { none: 'schools' },
  school_name_grams: { none: "pieces of schools' names, for the school search" },
  school_connectors: { none: "schools' sign-in systems" },
  saml_metadata: { none: "SAML federations' metadata" },
  saml_requests: { none: 'SAML sign-ins started, by request ID and connector' },
  upstream_tokens_used: { none: 'SAML assertions and logout tokens taken, kept as HMACs until they expire' },
  agreement_texts: { none: 'agreement texts per language' },
  classes: { none: 'classes' },
  products: { none: 'products' },
  settings: { none: "the platform's settings" },
  leases: { none: 'which process holds a background job' },
  signing_keys: { none: 'token signing keys' },
  webhook_endpoints: { none: "sites' webhook addresses" },
  captcha_challenges: { none: 'captcha puzzles, by address and expiry' },
  captcha_policies: { none: 'captcha rules' },
  captcha_providers: { none: 'captcha vendors' },
  captcha_vendor_keys: { none: "captcha vendors' keys" },
  kysely_migration: { none: 'applied migrations' },
  kysely_migration_lock: { none: 'the migration lock' },

  usage_events: { events: true },
  usage_event_hours: { events: true },
  usage_day_visitors: { events: true },
  monitor_beacons: { none: 'page timings and errors, by address and page, naming no account' },
};

/** Deletes every row naming the person, in `db` (the erasure's transaction), the user row last. */
export const eraseUserRows = async (db: Db, person: Person): Promise<void> => {
  for (const rule of Object.values(TABLE_RULES)) if ('erase' in rule) await rule.erase(db, person);
};

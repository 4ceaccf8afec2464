/**
 * What a person's copy of their data holds from each table of the accounts database, written once: the
 * area (file of the zip) and part a table's rows go to, read without secrets, hashes or another
 * person's id, phone or e-mail; or why the table is left out. Every table the erasure map
 * (erasure.ts) does not call `none` has its line here (`export-map.test.ts` reads the tables from the
 * live schema and fails on one that has none), so a table added later cannot be forgotten by export.
 * The usage tables are the events store's (`EventsStore.userEventsAfter`), which lives here or in
 * ClickHouse.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Person } from './erasure.ts';

type Db = Kysely<Database>;

export type Row = Record<string, unknown>;

/** The zip's files (each `<area>.json`, or `.csv` where a table reads better: services/account/export-zip.ts). */
export const EXPORT_AREAS = [
  'profile',
  'sign-in-methods',
  'sessions',
  'agreements',
  'consents',
  'applications',
  'classes',
  'family',
  'security-events',
  'access-log',
  'exports',
  'usage-events',
] as const;
export type ExportArea = (typeof EXPORT_AREAS)[number];

export type ExportRule =
  /** The rows go to `area` (under `part` in its JSON; a CSV area has one part). */
  | { area: ExportArea; part: string; read: (db: Db, person: Person) => Promise<Row[]> }
  /** Names the person but is not theirs to take away, for this reason (secrets, hashes, short-lived). */
  | { leftOut: string }
  /** Read from the events store, page by page. */
  | { events: true };

const byUser = <T extends keyof Database>(table: T, columns: readonly string[]) => ({
  read: (db: Db, person: Person) =>
    db
      .selectFrom(table as 'sessions')
      .select(columns as 'created_at'[])
      .where('user_id', '=', person.id)
      .execute() as Promise<Row[]>,
});

const grantOf = (payload: string) => {
  const grant = JSON.parse(payload) as { clientId?: string; openid?: { scope?: string }; iat?: number; exp?: number };
  return {
    client_id: grant.clientId ?? '',
    scopes: grant.openid?.scope ?? '',
    granted_at: (grant.iat ?? 0) * 1000,
    expires_at: (grant.exp ?? 0) * 1000,
  };
};

/** Every table of the accounts database that names a person, and where it goes in their copy. */
export const EXPORT_RULES: Record<string, ExportRule> = {
  users: {
    area: 'profile',
    part: 'profile',
    read: (db, person) =>
      db
        .selectFrom('users')
        .select([
          'id',
          'phone',
          'phone_verified',
          'email',
          'email_verified',
          'username',
          'nickname',
          'fullname',
          'sex',
          'birthday',
          'qq',
          'description',
          'grade',
          'avatar_url',
          'age_band',
          'consent_state',
          'blocked_at',
          'erase_at',
          'created_at',
          'updated_at',
        ])
        .select((eb) => eb('password_hash', 'is not', null).as('password_set'))
        .where('id', '=', person.id)
        .execute(),
  },
  user_oauths: {
    area: 'sign-in-methods',
    part: 'linked_accounts',
    ...byUser('user_oauths', ['provider', 'openid', 'unionid', 'nickname', 'avatar_url', 'created_at']),
  },
  totp_secrets: {
    area: 'sign-in-methods',
    part: 'authenticator_app',
    ...byUser('totp_secrets', ['confirmed_at', 'created_at']),
  },
  passkeys: {
    area: 'sign-in-methods',
    part: 'passkeys',
    ...byUser('passkeys', ['name', 'transports', 'created_at', 'last_used_at']),
  },
  recovery_codes: { area: 'sign-in-methods', part: 'recovery_codes', ...byUser('recovery_codes', ['used_at']) },
  sign_in_badges: {
    area: 'sign-in-methods',
    part: 'sign_in_cards',
    ...byUser('sign_in_badges', ['created_at', 'revoked_at']),
  },
  school_person_keys: {
    area: 'sign-in-methods',
    part: 'school_sign_in',
    // The school and what first named the person there (the key itself is an HMAC, never the number).
    read: (db, person) =>
      db
        .selectFrom('school_person_keys')
        .innerJoin('schools', 'schools.id', 'school_person_keys.school_id')
        .select(['schools.name as school', 'school_person_keys.source', 'school_person_keys.created_at'])
        .where('school_person_keys.user_id', '=', person.id)
        .execute(),
  },
  school_number_pairs: {
    area: 'sign-in-methods',
    part: 'school_sign_in',
    // The school that found one of its numbers on this account and another (the other account's id is not the person's).
    read: (db, person) =>
      db
        .selectFrom('school_number_pairs')
        .innerJoin('schools', 'schools.id', 'school_number_pairs.school_id')
        .select(['schools.name as school', 'school_number_pairs.created_at'])
        .where((eb) => eb.or([eb('user_id', '=', person.id), eb('other_id', '=', person.id)]))
        .execute(),
  },
  sessions: {
    area: 'sessions',
    part: 'sessions',
    ...byUser('sessions', ['method', 'pid', 'ip', 'user_agent', 'created_at', 'second_factor_at', 'revoked_at']),
  },
  agreement_signatures: {
    area: 'agreements',
    part: 'signed',
    read: (db, person) =>
      db
        .selectFrom('agreement_signatures')
        .innerJoin('agreements', 'agreements.id', 'agreement_signatures.agreement_id')
        .select(['agreements.code', 'agreements.title', 'agreements.version', 'agreement_signatures.signed_at'])
        .where('agreement_signatures.user_id', '=', person.id)
        .execute(),
  },
  guardian_consents: {
    area: 'consents',
    part: 'guardian_consents',
    // A child's consents (by whichever guardian), and the decisions the person made as a guardian:
    // neither side's id is written.
    read: async (db, person) =>
      (
        await db
          .selectFrom('guardian_consents')
          .select([
            'child_id',
            'method',
            'text_version',
            'scopes',
            'decision',
            'created_at',
            'adult_check_vendor',
            'adult_check_request_id',
            'adult_check_at',
          ])
          .where((eb) => eb.or([eb('child_id', '=', person.id), eb('guardian_id', '=', person.id)]))
          .execute()
      ).map(({ child_id, ...row }) => ({ about: Number(child_id) === person.id ? 'me' : 'my_child', ...row })),
  },
  guardian_adult_checks: {
    area: 'consents',
    part: 'adult_checks',
    // All there is: the name and ID number given were never kept.
    ...byUser('guardian_adult_checks', ['vendor', 'result', 'request_id', 'created_at']),
  },
  school_agreements: {
    leftOut: "schools' agreements for their pupils: the school's record (the operator who entered one, by number)",
  },
  oidc_models: {
    area: 'applications',
    part: 'grants',
    read: async (db, person) => {
      const grants = await db
        .selectFrom('oidc_models')
        .select('payload')
        .where('model', '=', 'Grant')
        .where('account_id', '=', String(person.id))
        .execute();
      const granted = grants.map(({ payload }) => grantOf(payload));
      const clientIds = [...new Set(granted.map((grant) => grant.client_id))];
      const names = new Map(
        clientIds.length === 0
          ? []
          : (
              await db
                .selectFrom('applications')
                .select(['client_id', 'name'])
                .where('client_id', 'in', clientIds)
                .execute()
            ).map((a) => [a.client_id, a.name]),
      );
      return granted.map((grant) => ({ application: names.get(grant.client_id) ?? grant.client_id, ...grant }));
    },
  },
  school_members: {
    area: 'classes',
    part: 'schools',
    read: (db, person) =>
      db
        .selectFrom('school_members')
        .innerJoin('schools', 'schools.id', 'school_members.school_id')
        .select(['schools.name as school', 'school_members.role', 'school_members.status', 'school_members.created_at'])
        .where('school_members.user_id', '=', person.id)
        .execute(),
  },
  class_members: {
    area: 'classes',
    part: 'classes',
    // The person's own membership of each class, never the class list.
    read: (db, person) =>
      db
        .selectFrom('class_members')
        .innerJoin('classes', 'classes.id', 'class_members.class_id')
        .innerJoin('schools', 'schools.id', 'classes.school_id')
        .select([
          'schools.name as school',
          'classes.name as class',
          'classes.grade',
          'classes.school_year',
          'class_members.role',
          'class_members.status',
          'class_members.created_at',
        ])
        .where('class_members.user_id', '=', person.id)
        .execute(),
  },
  pupil_accounts: {
    area: 'classes',
    part: 'school_account',
    read: (db, person) =>
      db
        .selectFrom('pupil_accounts')
        .innerJoin('schools', 'schools.id', 'pupil_accounts.school_id')
        .select([
          'schools.name as school',
          'pupil_accounts.display_name',
          'pupil_accounts.must_change_password',
          'pupil_accounts.created_at',
        ])
        .where('pupil_accounts.user_id', '=', person.id)
        .execute(),
  },
  minor_settings: {
    area: 'family',
    part: 'minor_mode_limits',
    // The limits set on the person's own account; which guardian set them (another person's id) is
    // not written.
    ...byUser('minor_settings', ['daily_limit_minutes', 'curfew', 'updated_at']),
  },
  guardians: {
    area: 'family',
    part: 'links',
    read: async (db, person) =>
      (
        await db
          .selectFrom('guardians')
          .select(['child_id', 'relation', 'created_at'])
          .where((eb) => eb.or([eb('child_id', '=', person.id), eb('guardian_id', '=', person.id)]))
          .execute()
      ).map(({ child_id, ...row }) => ({
        i_am: Number(child_id) === person.id ? 'the_child' : 'the_guardian',
        ...row,
      })),
  },
  guardian_requests: {
    area: 'family',
    part: 'link_requests',
    // Links the person asked for, and those asked for on their own account; who else asked or decided
    // (another person's id) is not written.
    read: async (db, person) =>
      (
        await db
          .selectFrom('guardian_requests')
          .select(['child_id', 'relation', 'state', 'asked_at', 'opens_at', 'decided_at', 'how'])
          .where((eb) => eb.or([eb('child_id', '=', person.id), eb('requester_id', '=', person.id)]))
          .execute()
      ).map(({ child_id, ...row }) => ({
        i_am: Number(child_id) === person.id ? 'the_child' : 'the_requester',
        ...row,
      })),
  },
  security_events: {
    area: 'security-events',
    part: 'events',
    ...byUser('security_events', ['event', 'reason', 'ip', 'at']),
  },
  admin_audit: {
    area: 'security-events',
    part: 'operator_actions',
    // What operators did to the account; which operator is the audit log's.
    read: (db, person) =>
      db.selectFrom('admin_audit').select(['action', 'at']).where('target', '=', `user:${person.id}`).execute(),
  },
  edu_access_log: {
    area: 'access-log',
    part: 'reads',
    read: (db, person) =>
      db
        .selectFrom('edu_access_log')
        .leftJoin('users', 'users.id', 'edu_access_log.reader_id')
        .select([
          'users.nickname as reader_name',
          'edu_access_log.fields',
          'edu_access_log.purpose',
          'edu_access_log.created_at',
        ])
        .where('edu_access_log.subject_id', '=', person.id)
        .orderBy('edu_access_log.created_at')
        .execute(),
  },
  data_requests: {
    area: 'exports',
    part: 'data_rights_requests',
    // The person's requests (copies, corrections, deletions, objections) and how each was answered.
    ...byUser('data_requests', [
      'kind',
      'requested_by',
      'status',
      'detail',
      'refusal_reason',
      'created_at',
      'due_at',
      'closed_at',
    ]),
  },
  staff_access_approvals: {
    leftOut:
      "operators' requests to each other for leave to read the record: each read itself, with the reason given, is in the access log",
  },
  report_people_read: {
    leftOut:
      "the years in which staff read the record, kept for the yearly report's count of people read: each read itself is in the access log",
  },
  data_exports: {
    area: 'exports',
    part: 'exports',
    read: (db, person) =>
      db
        .selectFrom('data_exports')
        .select(['requested_by', 'state', 'created_at', 'finished_at'])
        .where('user_id', '=', person.id)
        .execute(),
  },

  refresh_tokens: { leftOut: "hashes of the sessions' refresh tokens: secrets (the sessions are in sessions.csv)" },
  password_history: {
    leftOut: "hashes of a staff member's previous passwords, for the staff policy's no-reuse rule: secrets",
  },
  codes: { leftOut: 'hashes of one-time codes sent to the phone or e-mail, gone within minutes' },
  tickets: { leftOut: 'secrets of a sign-in step in progress, gone within minutes' },
  outbox: { leftOut: 'codes and notices as sent (development outbox), kept a day' },
  counters: { leftOut: 'rate-limit windows, at most a day long' },
  roster_links: { leftOut: "the HMAC of the school roster's id for the account (never the id itself)" },
  guardian_invites: {
    leftOut:
      "a guardian the school's address book lists for the child, with the relation and the phone the school recorded, until that guardian confirms (then the link is in guardians.csv)",
  },
  address_books: { leftOut: "a school's address-book source: the school's app and schedule, no person" },
  roster_jobs: { leftOut: "an operator's roster upload: the school's file, not the operator's data" },
  school_sign_ins: {
    leftOut:
      "a school sign-in's ticket hash, its platform session and subject as HMACs, and (sealed) what signing out at the school needs, while its session lasts",
  },
  backchannel_logouts: { leftOut: 'logout notices to applications, gone once delivered' },
  webhook_events: { leftOut: "notices to the platform's sites that the account changed (the webhook log, 30 days)" },
  webhook_deliveries: { leftOut: 'delivery state of those notices' },
  webhook_attempts: { leftOut: 'delivery attempts of those notices' },
  webhook_sequences: { leftOut: 'the number of the last notice about the account' },

  usage_events: { events: true },
  usage_event_hours: {
    leftOut: "hourly counts made from the usage events (in usage-events.csv), naming no one's events",
  },
  usage_day_visitors: { leftOut: 'daily visitor counts made from the usage events (in usage-events.csv)' },
};

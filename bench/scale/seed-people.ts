/**
 * The accounts and schools, as SQL over generate_series (one statement per table, no row sent from
 * here): operators (each with every duty), school admins, teachers (one a class), guardians (one for every fourth pupil),
 * other adults and pupils, with their schools, classes, memberships, pupil accounts, guardian links
 * and consents, the schools' agreements, data-rights requests and staff-access approvals. Ids are
 * given (layout.ts), and the sequences moved past them at the end (`SEQUENCES_SQL`).
 */
import { OPERATOR_DUTIES } from '@edupass/protocol';
import { type Layout, NICKNAME_SQL, PHONE_SQL, PUPILS_PER_GUARDIAN, USERNAME_SQL } from './layout.ts';

export interface Step {
  name: string;
  rows: number;
  sql: string;
}

export const DAY = 86_400_000;
export const YEAR = 365 * DAY;
/** A hash nobody signs in with, the shape of the server's argon2id ones. */
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2NhbGUtYmVuY2g$QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE';

/** SQL: a time within the last `span` ms before `now`, at random. */
export const within = (now: number, span: number) => `(${now} - floor(random() * ${span}))::bigint`;

/** Class, school and grade of pupil `k` (0-based) as SQL (the same arithmetic as layout.ts). */
const pupilPlace = (l: Layout) => {
  const perSchool = Math.ceil(l.classes / l.schools);
  return `select k, 1 + k % ${l.classes} as c, 1 + ((k % ${l.classes}) / ${perSchool}) as s,
    1 + (k % ${l.classes}) % 12 as grade, ${l.pupils.from} + k as id from generate_series(0, ${l.size.pupils - 1}) k`;
};

const adultUsers = (l: Layout, now: number): Step => ({
  name: 'users: operators, school admins, teachers, guardians, adults',
  rows: l.pupils.from - 1,
  sql: `insert into users (id, pid, phone, email, username, username_key, password_hash, nickname, role,
      operator_duties, created_at, updated_at, age_band)
    select id, 'edupass', ${PHONE_SQL('id')},
      case when id % 5 < 2 then 'u' || id || '@' || (array['qq.com','163.com','126.com','example.cn'])[1 + id % 4] end,
      case when id % 3 = 0 then ${USERNAME_SQL('id')} end,
      case when id % 3 = 0 then lower(${USERNAME_SQL('id')}) end,
      '${PASSWORD_HASH}',
      case when id % 5 <> 4 then ${NICKNAME_SQL('id')} end,
      case when id < ${l.admins.from} then 'operator' else 'user' end,
      case when id < ${l.admins.from} then '${OPERATOR_DUTIES.join(',')}' end,
      ${now - YEAR} + (id::bigint * ${YEAR - DAY}) / ${l.users}, ${now - YEAR} + (id::bigint * ${YEAR - DAY}) / ${l.users},
      'adult'
    from generate_series(1, ${l.pupils.from - 1}) id`,
});

/** Pupils: a username of their school, the band of their class's grade, consent from the school or a guardian. */
const pupilUsers = (l: Layout, now: number): Step => ({
  name: 'users: pupils',
  rows: l.size.pupils,
  sql: `insert into users (id, pid, username, username_key, password_hash, fullname, role, created_at, updated_at,
      age_band, consent_state)
    select id, 'edupass', 'p' || s || '-' || k, 'p' || s || '-' || k, '$sealed-initial$', '学生' || k, 'user',
      ${now - YEAR} + (id::bigint * ${YEAR - DAY}) / ${l.users}, ${now - YEAR} + (id::bigint * ${YEAR - DAY}) / ${l.users},
      case when grade + 5 < 8 then 'under_8' when grade + 5 < 14 then '8_13' when grade + 5 < 16 then '14_15' else '16_17' end,
      case when grade + 5 >= 14 then null when k % ${PUPILS_PER_GUARDIAN} = 0 then 'granted' else 'school' end
    from (${pupilPlace(l)}) p`,
});

const schools = (l: Layout, now: number): Step[] => [
  {
    name: 'schools',
    rows: l.schools,
    sql: `insert into schools (id, name, name_key, daily_batches, created_at)
      select s, '第' || s || '中学', '第' || s || '中学', null, ${now - YEAR} from generate_series(1, ${l.schools}) s`,
  },
  {
    name: 'school agreements',
    rows: l.schools,
    sql: `insert into school_agreements (school_id, signatory, signed_on, text_version, recorded_by, recorded_at)
      select s, '校长' || s, '2026-02-01', 1, 1, ${now - YEAR} from generate_series(1, ${l.schools}) s`,
  },
  {
    name: 'classes',
    rows: l.classes,
    sql: `insert into classes (id, school_id, name, grade, school_year, created_at)
      select c, 1 + (c - 1) / ${Math.ceil(l.classes / l.schools)}, (1 + (c - 1) % 12) || '年级' || c || '班',
        1 + (c - 1) % 12, '2026', ${now - YEAR} from generate_series(1, ${l.classes}) c`,
  },
  {
    name: 'school members: admins and teachers (one in twenty waiting for approval)',
    rows: l.schools + l.classes,
    sql: `insert into school_members (school_id, user_id, role, status, created_at)
      select s, ${l.admins.from} + s - 1, 'school_admin', 'approved', ${now - YEAR} from generate_series(1, ${l.schools}) s
      union all
      select 1 + (c - 1) / ${Math.ceil(l.classes / l.schools)}, ${l.teachers.from} + c - 1, 'teacher',
        case when c % 20 = 0 then 'pending' else 'approved' end, ${within(now, YEAR)}
      from generate_series(1, ${l.classes}) c`,
  },
];

const pupilsInClasses = (l: Layout, now: number): Step[] => [
  {
    name: 'class members: teachers and pupils',
    rows: l.classes + l.size.pupils,
    sql: `insert into class_members (class_id, user_id, role, status, created_at)
      select c, ${l.teachers.from} + c - 1, 'teacher', 'active', ${now - YEAR} from generate_series(1, ${l.classes}) c
      union all
      select c, id, 'pupil', 'active', ${within(now, YEAR)} from (${pupilPlace(l)}) p`,
  },
  {
    name: 'pupil accounts',
    rows: l.size.pupils,
    sql: `insert into pupil_accounts (user_id, school_id, created_by, display_name, must_change_password, created_at)
      select id, s, ${l.teachers.from} + c - 1, '学生' || k, 0, ${within(now, YEAR)} from (${pupilPlace(l)}) p`,
  },
];

const families = (l: Layout, now: number): Step[] => [
  {
    name: 'guardian links',
    rows: l.guardians.count,
    sql: `insert into guardians (child_id, guardian_id, relation, created_at)
      select ${l.pupils.from} + g * ${PUPILS_PER_GUARDIAN}, ${l.guardians.from} + g,
        (array['mother','father','grandparent','other'])[1 + g % 4], ${within(now, YEAR)}
      from generate_series(0, ${l.guardians.count - 1}) g`,
  },
  {
    name: 'guardian consents',
    rows: l.guardians.count,
    sql: `insert into guardian_consents (child_id, guardian_id, method, text_version, scopes, decision, created_at)
      select ${l.pupils.from} + g * ${PUPILS_PER_GUARDIAN}, ${l.guardians.from} + g, 'sms', 1, 'openid profile',
        case when g % 50 = 0 then 'withdrawn' else 'granted' end, ${within(now, YEAR)}
      from generate_series(0, ${l.guardians.count - 1}) g`,
  },
];

/** Data-rights requests (one per hundred growing rows) and staff reads approved (one per thousand). */
const rights = (l: Layout, now: number): Step[] => [
  {
    name: 'data-rights requests',
    rows: Math.round(l.size.rows / 100),
    sql: `insert into data_requests (user_id, kind, requested_by, status, created_at, due_at, closed_at)
      select 1 + floor(random() * ${l.users}), (array['export','deletion','correction','objection'])[1 + i % 4],
        (array['user','guardian','operator'])[1 + i % 3], st, t, t + ${15 * DAY},
        case when st = 'open' then null else t + floor(random() * ${20 * DAY})::bigint end
      from (select i, case when i % 20 = 0 then 'refused' when i % 7 = 0 then 'open' else 'done' end as st,
        ${within(now, YEAR)} as t from generate_series(1, ${Math.round(l.size.rows / 100)}) i) r`,
  },
  {
    name: 'staff access approvals',
    rows: Math.round(l.size.rows / 1000),
    sql: `insert into staff_access_approvals (requested_by, subject_id, reason, status, decided_by, decided_at, expires_at, created_at)
      select 1 + i % ${l.operators.count}, ${l.pupils.from} + floor(random() * ${l.size.pupils}), 'guardian complaint',
        case when i % 5 = 0 then 'refused' else 'approved' end, 1 + (i + 1) % ${l.operators.count}, t + 3600000, t + ${DAY}, t
      from (select i, ${within(now, YEAR)} as t from generate_series(1, ${Math.round(l.size.rows / 1000)}) i) r`,
  },
];

export const peopleSteps = (l: Layout, now: number): Step[] => [
  adultUsers(l, now),
  pupilUsers(l, now),
  ...schools(l, now),
  ...pupilsInClasses(l, now),
  ...families(l, now),
  ...rights(l, now),
];

/** Every sequence of the schema past the largest id its table holds, so the server's inserts go on from there. */
export const SEQUENCES_SQL = `do $$
declare r record;
begin
  for r in select s.relname as seq, t.relname as tab, a.attname as col
    from pg_class s join pg_depend d on d.objid = s.oid join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.relkind = 'S' loop
    execute format('select setval(%L, greatest((select max(%I) from %I), 1))', r.seq, r.col, r.tab);
  end loop;
end $$`;

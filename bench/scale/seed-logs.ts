/**
 * The tables that grow with use, `size.rows` rows each, as SQL over generate_series: sessions and
 * their refresh tokens, the identity provider's grants and tokens, the access log, the audit log, the
 * webhook log (events, deliveries, attempts), security events and usage events (with their rollups,
 * `rollupSteps`). What the measured statements filter on is spread as on a live platform: user ids
 * over every account, times over the year (the webhook log over its 30 days, usage over its 90, tokens
 * not yet expired: the server's start-up sweep finds nothing to delete), actions and kinds varied.
 * Rows keyed by an md5 go in in key order, appended to their primary-key b-tree: written at random
 * places they took most of the large size's 13 minutes of seeding (1,000,000 sessions: 106 s).
 */
import type { Layout } from './layout.ts';
import { DAY, type Step, within, YEAR } from './seed-people.ts';

/** Applications grants are spread over, and those the bench removes (the same few grants at each size). */
export const APPLICATIONS = 20;

/** SQL: a user id at random. */
const anyone = (l: Layout) => `(1 + floor(random() * ${l.users}))::bigint`;

/** SQL: a time in the last `span` ms fixed by `i` (so rows made apart, as a delivery and its attempt, agree). */
const hashedTime = (now: number, span: number, i = 'i') => `(${now} - ((${i}::bigint * 2654435761) % ${span}))`;

const sessions = (l: Layout, now: number): Step[] => [
  {
    name: 'sessions (one in ten ended in the last 20 days)',
    rows: l.size.rows,
    sql: `insert into sessions (id, user_id, method, ip, user_agent, created_at, revoked_at, pid)
      select md5(i || 'session'), ${anyone(l)}, (array['password','sms','card','wechat','qq'])[1 + i % 5],
        '10.' || (i % 250) || '.' || (i % 199) || '.' || (i % 97), (array['Mozilla/5.0 (iPhone)','Mozilla/5.0 (Windows NT 10.0)','okhttp/4.12'])[1 + i % 3],
        ${within(now, YEAR)}, case when i % 10 = 0 then ${within(now, 20 * DAY)} end, 'edupass'
      from generate_series(1, ${l.size.rows}) i
      order by 1`,
  },
  {
    name: 'refresh tokens (live: issued in the last 29 days)',
    rows: l.size.rows,
    sql: `insert into refresh_tokens (token_hash, session_id, created_at, expires_at)
      select md5(i || 'refresh'), md5((1 + (i::bigint * 7919) % ${l.size.rows}) || 'session'), t, t + ${30 * DAY}
      from (select i, ${within(now, 29 * DAY)} as t from generate_series(1, ${l.size.rows}) i) r
      order by 1`,
  },
];

/** Grants with their access and refresh tokens and provider sessions, ten rows per grant, one account each. */
const oidcModels = (l: Layout, now: number): Step => ({
  name: 'oidc models (grants, tokens, provider sessions)',
  rows: l.size.rows,
  sql: `insert into oidc_models (model, id, payload, grant_id, uid, expires_at, account_id, client_id)
    select model, md5(i || 'oidc'),
      json_build_object('kind', model, 'jti', md5(i || 'oidc'), 'accountId', account::text, 'clientId', client,
        'openid', json_build_object('scope', 'openid profile'), 'iat', ${Math.floor(now / 1000)} - i % 86400,
        'exp', ${Math.floor(now / 1000)} + 86400)::text,
      case when model = 'Session' then null else 'grant-' || g end,
      case when model = 'Session' then md5(i || 'uid') end,
      ${now + 3_600_000} + floor(random() * ${14 * DAY})::bigint, account::text,
      case when model = 'Session' then null else client end
    from (select i, i / 10 as g, 1 + ((i / 10)::bigint * 2654435761) % ${l.users} as account,
      'app-' || (1 + (i / 10) % ${APPLICATIONS}) as client,
      (array['Grant','Grant','Grant','Session','Session','AccessToken','AccessToken','AccessToken','RefreshToken','RefreshToken'])[1 + i % 10] as model
      from generate_series(1, ${l.size.rows}) i) m
    order by 1, 2`,
});

/** Reads of pupils' records: teachers most, then guardians, then operators (half of them with a reason). */
const accessLog = (l: Layout, now: number): Step => ({
  name: 'access log',
  rows: l.size.rows,
  sql: `insert into edu_access_log (reader_id, subject_id, fields, purpose, created_at, reader_role, reason)
    select case r when 'teacher' then ${l.teachers.from} + i % ${l.teachers.count}
        when 'guardian' then ${l.guardians.from} + i % ${l.guardians.count} else 1 + i % ${l.operators.count} end,
      ${l.pupils.from} + floor(random() * ${l.size.pupils})::bigint, 'name,username',
      case r when 'teacher' then (array['class_detail','card_sheet','pupils_reset','pupils_created'])[1 + i % 4]
        when 'guardian' then 'guardian_view' else 'user_detail' end,
      ${within(now, YEAR - DAY)}, r, case when r = 'operator' and i % 2 = 0 then 'guardian complaint' end
    from (select i, case when i % 20 < 12 then 'teacher' when i % 20 < 17 then 'guardian' else 'operator' end as r
      from generate_series(1, ${l.size.rows}) i) a`,
});

/** Actions by weight (of 100); the edu ones by teachers, the others by operators. */
const AUDIT_WEIGHTS: [action: string, weight: number][] = [
  ['edu.pupils.create', 30],
  ['edu.cards.print', 20],
  ['edu.pupils.reset', 12],
  ['edu.pupils.move', 5],
  ['edu.class.promote', 4],
  ['edu.class.archive', 3],
  ['teacher.approve', 6],
  ['user.block', 4],
  ['user.unblock', 2],
  ['user.sessions.revoke', 4],
  ['user.export', 3],
  ['user.delete', 3],
  ['data_request.close', 2],
  ['staff_access.request', 1],
  ['application.update', 1],
];
/** The rare action the audit filter looks for: a handful a year, whatever the platform's size. */
export const RARE_ACTION = 'signing-key.rotate';
const RARE_COUNT = 8;

const auditLog = (l: Layout, now: number): Step => {
  const actions = AUDIT_WEIGHTS.flatMap(([action, weight]) => Array<string>(weight).fill(action));
  const every = Math.floor(l.size.rows / RARE_COUNT);
  return {
    name: `audit log (${RARE_COUNT} × ${RARE_ACTION})`,
    rows: l.size.rows,
    sql: `insert into admin_audit (id, operator_id, action, target, detail, at)
      select i, case when action like 'edu.%' then ${l.teachers.from} + i % ${l.teachers.count} else 1 + i % ${l.operators.count} end,
        action, case when action like 'edu.%' then 'class:' || (1 + i % ${l.classes}) else 'user:' || (1 + (i::bigint * 7919) % ${l.users}) end,
        '', ${now - YEAR} + (i::bigint * ${YEAR - DAY}) / ${l.size.rows}
      from (select i, case when i % ${every} = 0 then '${RARE_ACTION}'
        else (array[${actions.map((a) => `'${a}'`).join(',')}])[1 + (i::bigint * 7919) % ${actions.length}] end as action
        from generate_series(1, ${l.size.rows}) i) a`,
  };
};

/** The webhook log of the last 29 days: an event, its delivery to one of five sites, one attempt. */
const webhookLog = (l: Layout, now: number): Step[] => {
  const at = hashedTime(now, 29 * DAY);
  return [
    {
      name: 'webhook endpoints',
      rows: 5,
      sql: `insert into webhook_endpoints (id, pid, url, events, secret_sealed, enabled, disabled_reason, created_at)
        select e, 'edupass', 'https://site' || e || '.example.cn/hooks', '*', 'sealed', 0, 'paused', ${now - YEAR}
        from generate_series(1, 5) e`,
    },
    {
      name: 'webhook events',
      rows: l.size.rows,
      sql: `insert into webhook_events (id, type, pid, payload, created_at, user_id)
        select 'evt_' || md5(i || 'event'), type, 'edupass', json_build_object('type', type, 'user_id', u)::text, ${at}, u
        from (select i, ${anyone(l)} as u,
          (array['user.created','user.updated','session.started','session.ended','pupils.created'])[1 + i % 5] as type
          from generate_series(1, ${l.size.rows}) i) e
        order by 1`,
    },
    {
      name: 'webhook deliveries',
      rows: l.size.rows,
      sql: `insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, give_up_at, created_at)
        select i, 'evt_' || md5(i || 'event'), 1 + i % 5, case when i % 50 = 0 then 'failed' else 'delivered' end, 1,
          ${at}, ${at} + ${DAY}, ${at} from generate_series(1, ${l.size.rows}) i`,
    },
    {
      name: 'webhook attempts',
      rows: l.size.rows,
      sql: `insert into webhook_attempts (id, delivery_id, at, duration_ms, response_status, error, ok)
        select i, i, ${at} + 200, 20 + i % 300, case when i % 50 = 0 then 500 else 200 end, '',
          case when i % 50 = 0 then 0 else 1 end from generate_series(1, ${l.size.rows}) i`,
    },
  ];
};

const securityEvents = (l: Layout, now: number): Step => ({
  name: 'security events',
  rows: l.size.rows,
  sql: `insert into security_events (user_id, event, reason, ip, at)
    select ${anyone(l)}, (array['sign_in_failed','sign_in_failed','new_device','password_changed','account_locked','second_factor_added'])[1 + i % 6],
      'by user', '10.' || (i % 250) || '.' || (i % 199) || '.1', ${within(now, YEAR - 5 * DAY)}
    from generate_series(1, ${l.size.rows}) i`,
});

/** Usage events of the last 89 days: forty keys on a long tail, a device each, a signed-in user for seven in ten. */
const usageEvents = (l: Layout, now: number, product: string): Step => ({
  name: 'usage events',
  rows: l.size.rows,
  sql: `insert into usage_events (product_code, event_id, event_key, at, received_at, dur, data, device_uid, user_id, ip, platform, is_dev)
    select '${product}', md5(i || 'usage'), k, t, t + 1000, case when k = 'key_3' then 1000 + i % 60000 end, '{}',
      'd' || floor(random() * ${Math.max(1, Math.round(l.size.rows / 5))}),
      case when i % 10 < 7 then ${anyone(l)}::text end, '10.0.' || (i % 250) || '.1', 'web', 0
    from (select i, 'key_' || floor(40 * power(random(), 3)) as k, ${within(now, 89 * DAY)} as t
      from generate_series(1, ${l.size.rows}) i) e
    order by 1, 2`,
});

export const logSteps = (l: Layout, now: number, product: string): Step[] => [
  {
    name: 'applications',
    rows: APPLICATIONS,
    sql: `insert into applications (client_id, name, logo_url, redirect_uris, post_logout_redirect_uris, first_party, created_at, updated_at)
      select 'app-' || a, '应用' || a, '', '["https://app' || a || '.example.cn/callback"]', '[]', 0, ${now - YEAR}, ${now - YEAR}
      from generate_series(1, ${APPLICATIONS}) a`,
  },
  ...sessions(l, now),
  oidcModels(l, now),
  accessLog(l, now),
  auditLog(l, now),
  ...webhookLog(l, now),
  securityEvents(l, now),
  usageEvents(l, now, product),
];

/** The usage rollups, from the events as the server's ingestion would have written them. */
export const rollupSteps = (l: Layout): Step[] => [
  {
    name: 'usage event hours',
    rows: 0,
    sql: `insert into usage_event_hours (product_code, event_key, hour, events)
      select product_code, event_key, at - at % 3600000, count(*) from usage_events group by 1, 2, 3`,
  },
  {
    name: 'usage day visitors',
    rows: l.size.rows,
    sql: `insert into usage_day_visitors (product_code, kind, visitor, day)
      select distinct product_code, 'device', device_uid, at - at % ${DAY} from usage_events where device_uid is not null
      union all
      select distinct product_code, 'user', user_id, at - at % ${DAY} from usage_events where user_id is not null`,
  },
];

/**
 * Who and what the measured requests act on, chosen from the seeded population, and the rows each is
 * given on top of what the spread seeding gave it, the same at both sizes: so the deletion of an
 * account or the removal of an application does the same work in the small and the large database,
 * and the ratio between them is what the table sizes cost (an index used or not), not how much the
 * one account happened to hold.
 */
import type { Layout } from './layout.ts';
import { DAY, type Step, within } from './seed-people.ts';

export interface Targets {
  /** Adults to delete, pupils (each with a guardian) to delete, adults whose data is exported. */
  adults: number[];
  pupils: number[];
  exported: number[];
  /** Client ids of the applications to remove. */
  applications: string[];
  /** Pupils (without a guardian) whose deletion grace the backlog measure ends, in batches (sweep.ts). */
  due: number[][];
}

/** The sweep's backlog: batches of accounts made due at once, each erased by one sweep. */
export const DUE_BATCHES = 3;
export const DUE_PER_BATCH = 50;

/** `count` ids spread evenly over `from … from + span - 1`, every `step`-th id only. */
const spread = (from: number, span: number, count: number, step = 1) =>
  Array.from({ length: count }, (_, j) => from + step * Math.floor(((j + 0.5) * span) / step / count));

/** `count` of each kind (the requests, and one more for the warm-up). */
export const targetsOf = (l: Layout, count: number): Targets => {
  const adults = spread(l.adults.from, l.adults.count, 2 * count);
  const targets = {
    adults: adults.filter((_, j) => j % 2 === 0),
    exported: adults.filter((_, j) => j % 2 === 1),
    // Every fourth pupil from the first has a guardian (layout.ts).
    pupils: spread(l.pupils.from, l.pupils.count, count, 4),
    applications: Array.from({ length: count }, (_, j) => `gone-${j + 1}`),
    // The pupils two after those above (every fourth from the third: no guardian), never the same ids.
    due: Array.from({ length: DUE_BATCHES }, (_, b) =>
      spread(l.pupils.from + 2, l.pupils.count - 2, DUE_BATCHES * DUE_PER_BATCH, 4).filter(
        (_, j) => j % DUE_BATCHES === b,
      ),
    ),
  };
  // Too few accounts to spread over: the same account would be chosen twice (and seeded twice).
  for (const list of [adults, targets.pupils, targets.due.flat()]) {
    if (new Set(list).size < list.length) {
      throw new Error(
        `the ${l.size.label} database's ${l.size.pupils.toLocaleString('en')} pupils are too few for ${count} requests a path and the sweep's ${DUE_BATCHES * DUE_PER_BATCH} due accounts: give a larger --large (the small database has a hundredth of its pupils) or fewer --requests`,
      );
    }
  }
  return targets;
};

/** Per account: sessions, tokens per session, grants, reads of their record, security and usage events, webhook events. */
const PER_ACCOUNT = { sessions: 5, tokens: 2, grants: 10, reads: 20, security: 10, usage: 20, webhooks: 10 };
/** Grants and tokens of each application to remove. */
export const PER_APPLICATION = 200;

const ids = (list: number[]) => `unnest(array[${list.join(',')}]::bigint[]) u`;

/** The rows every target account is given (sessions with refresh tokens, grants, logs, events). */
const accountRows = (list: number[], now: number, product: string): Step[] => {
  const n = PER_ACCOUNT;
  return [
    {
      name: 'their sessions and refresh tokens',
      rows: list.length * n.sessions * (1 + n.tokens),
      sql: `with s as (insert into sessions (id, user_id, method, ip, user_agent, created_at, pid)
          select md5(u || '-' || n || 'target-session'), u, 'password', '10.9.9.9', 'bench', ${within(now, 300 * DAY)}, 'edupass'
          from ${ids(list)}, generate_series(1, ${n.sessions}) n returning id)
        insert into refresh_tokens (token_hash, session_id, created_at, expires_at)
        select md5(s.id || m), s.id, ${now - DAY}, ${now + 29 * DAY} from s, generate_series(1, ${n.tokens}) m`,
    },
    {
      name: 'their grants and tokens',
      rows: list.length * n.grants,
      sql: `insert into oidc_models (model, id, payload, grant_id, expires_at, account_id, client_id)
        select case when n % 2 = 0 then 'Grant' else 'AccessToken' end, md5(u || '-' || n || 'target-oidc'),
          json_build_object('accountId', u::text, 'clientId', 'app-1', 'openid', json_build_object('scope', 'openid'),
            'iat', ${Math.floor(now / 1000)}, 'exp', ${Math.floor(now / 1000) + 86400})::text,
          'target-grant-' || u, ${now + DAY}, u::text, 'app-1'
        from ${ids(list)}, generate_series(1, ${n.grants}) n`,
    },
    {
      name: 'reads of their records, security events',
      rows: list.length * (n.reads + n.security),
      sql: `with r as (insert into edu_access_log (reader_id, subject_id, fields, purpose, created_at, reader_role)
          select 1, u, 'name', 'user_detail', ${within(now, 300 * DAY)}, 'operator' from ${ids(list)}, generate_series(1, ${n.reads}) n)
        insert into security_events (user_id, event, reason, ip, at)
        select u, 'sign_in_failed', 'by user', '10.9.9.9', ${within(now, 300 * DAY)} from ${ids(list)}, generate_series(1, ${n.security}) n`,
    },
    {
      name: 'their usage events',
      rows: list.length * n.usage,
      sql: `insert into usage_events (product_code, event_id, event_key, at, received_at, data, device_uid, user_id, ip, is_dev)
        select '${product}', md5(u || '-' || n || 'target-usage'), 'key_1', t, t + 1000, '{}', 'target-device-' || u, u::text, '10.9.9.9', 0
        from (select u, n, ${within(now, 80 * DAY)} as t from ${ids(list)}, generate_series(1, ${n.usage}) n) e`,
    },
    {
      name: 'webhook events about them, delivered',
      rows: list.length * n.webhooks * 3,
      sql: `with e as (insert into webhook_events (id, type, pid, payload, created_at, user_id)
          select 'evt_target_' || u || '_' || n, 'user.updated', 'edupass', '{}', ${now - DAY}, u
          from ${ids(list)}, generate_series(1, ${n.webhooks}) n returning id, created_at),
        d as (insert into webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at, give_up_at, created_at)
          select id, 1, 'delivered', 1, created_at, created_at + ${DAY}, created_at from e returning id, created_at)
        insert into webhook_attempts (delivery_id, at, duration_ms, response_status, error, ok)
        select id, created_at + 200, 40, 200, '', 1 from d`,
    },
  ];
};

/** The applications to remove, each with the same grants and tokens. */
const applicationRows = (clientIds: string[], now: number, users: number): Step[] => [
  {
    name: 'applications to remove',
    rows: clientIds.length,
    sql: `insert into applications (client_id, name, logo_url, redirect_uris, post_logout_redirect_uris, first_party, created_at, updated_at)
      select c, c, '', '["https://' || c || '.example.cn/callback"]', '[]', 0, ${now - DAY}, ${now - DAY}
      from unnest(array[${clientIds.map((c) => `'${c}'`).join(',')}]) c`,
  },
  {
    name: 'their grants and tokens',
    rows: clientIds.length * PER_APPLICATION,
    sql: `insert into oidc_models (model, id, payload, grant_id, expires_at, account_id, client_id)
      select case when n % 2 = 0 then 'Grant' else 'RefreshToken' end, md5(c || '-' || n),
        json_build_object('clientId', c)::text, c || '-grant-' || (n / 2), ${now + DAY},
        (1 + floor(random() * ${users}))::bigint::text, c
      from unnest(array[${clientIds.map((c) => `'${c}'`).join(',')}]) c, generate_series(1, ${PER_APPLICATION}) n`,
  },
];

export const targetSteps = (l: Layout, t: Targets, now: number, product: string): Step[] => [
  ...accountRows([...t.adults, ...t.pupils, ...t.exported, ...t.due.flat()], now, product),
  ...applicationRows(t.applications, now, l.users),
];

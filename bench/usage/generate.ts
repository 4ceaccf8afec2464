/**
 * Statements that fill an events store with generated usage, server-side (no row crosses the wire):
 * `n` events over 30 days — key_0…key_19, 200 000 devices, a user on every third event (50 000),
 * a duration on every tenth — and n/10 beacons (perf, error and api in turn). The SQL stores also get
 * the rollups ingestion keeps (hourly counts, daily visitor sets), built from the generated rows.
 */
export const DAY_MS = 86_400_000;
export const START = Date.UTC(2026, 0, 1);
const SPAN = 30 * DAY_MS;
export const END = START + SPAN;

const beaconsOf = (events: number) => Math.max(1, Math.floor(events / 10));

const clickhouse = (n: number): string[] => {
  const m = beaconsOf(n);
  return [
    `INSERT INTO usage_events (product_code, event_id, event_key, at, received_at, dur, data, device_uid, user_id,
       process_id, ip, ua, platform, net, language, resolution, cpu, density, is_dev)
     SELECT 'edupass', toString(generateUUIDv4()), concat('key_', toString(number % 20)),
       ${START} + intDiv(number * ${SPAN}, ${n}) AS t, t, if(number % 10 = 0, toInt64(number % 5000), NULL), '{}',
       concat('device-', toString(number % 200000)), if(number % 3 = 0, concat('user-', toString(number % 50000)), NULL),
       NULL, '127.0.0.1', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0
     FROM numbers(${n})`,
    `INSERT INTO monitor_beacons (beacon_id, product_code, kind, page, name, value, url, method, code, business,
       stack, ip, ua, at, received_at)
     SELECT toString(generateUUIDv4()), 'edupass', ['perf', 'error', 'api'][number % 3 + 1] AS k, '/',
       if(k = 'perf', ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'][intDiv(number, 3) % 5 + 1],
         if(k = 'error', concat('error-', toString(number % 50)), NULL)),
       if(k = 'perf', toFloat64(number % 4000), NULL), if(k = 'api', concat('/v1/', toString(number % 30)), NULL),
       if(k = 'api', 'GET', NULL), if(k = 'api', toInt64(if(number % 7 = 0, 500, 200)), NULL),
       if(k = 'api', toInt64(number % 11 = 0), NULL), NULL, '127.0.0.1', NULL,
       ${START} + intDiv(number * ${SPAN}, ${m}) AS t, t
     FROM numbers(${m})`,
  ];
};

/** The same rows in SQL: `series(count)` is the row source of n = 0…count−1 (a prefix and a FROM). */
const sqlStatements = (n: number, series: (count: number) => { prefix: string; from: string }): string[] => {
  const events = series(n);
  const beacons = series(beaconsOf(n));
  return [
    `${events.prefix} INSERT INTO usage_events (product_code, event_id, event_key, at, received_at, dur, data,
       device_uid, user_id, ip, is_dev)
     SELECT 'edupass', 'ev-' || n, 'key_' || (n % 20), ${START} + n * ${SPAN} / ${n}, ${START} + n * ${SPAN} / ${n},
       CASE WHEN n % 10 = 0 THEN n % 5000 END, '{}', 'device-' || (n % 200000),
       CASE WHEN n % 3 = 0 THEN 'user-' || (n % 50000) END, '127.0.0.1', 0
     FROM ${events.from}`,
    `INSERT INTO usage_event_hours (product_code, event_key, hour, events)
     SELECT product_code, event_key, (at / 3600000) * 3600000, count(*) FROM usage_events GROUP BY 1, 2, 3`,
    ...['device_uid', 'user_id'].map(
      (column) => `INSERT INTO usage_day_visitors (product_code, kind, visitor, day)
       SELECT DISTINCT product_code, '${column === 'device_uid' ? 'device' : 'user'}', ${column}, (at / ${DAY_MS}) * ${DAY_MS}
       FROM usage_events WHERE ${column} IS NOT NULL`,
    ),
    `${beacons.prefix} INSERT INTO monitor_beacons (product_code, kind, page, name, value, url, method, code, business,
       ip, at, received_at)
     SELECT 'edupass', k, '/',
       CASE k WHEN 'perf' THEN CASE (n / 3) % 5 WHEN 0 THEN 'LCP' WHEN 1 THEN 'INP' WHEN 2 THEN 'CLS' WHEN 3 THEN 'FCP'
         ELSE 'TTFB' END WHEN 'error' THEN 'error-' || (n % 50) END,
       CASE WHEN k = 'perf' THEN n % 4000 END, CASE WHEN k = 'api' THEN '/v1/' || (n % 30) END,
       CASE WHEN k = 'api' THEN 'GET' END, CASE WHEN k = 'api' THEN CASE WHEN n % 7 = 0 THEN 500 ELSE 200 END END,
       CASE WHEN k = 'api' THEN CASE WHEN n % 11 = 0 THEN 1 ELSE 0 END END, '127.0.0.1', t, t
     FROM (SELECT n, CASE n % 3 WHEN 0 THEN 'perf' WHEN 1 THEN 'error' ELSE 'api' END AS k,
       ${START} + n * ${SPAN} / ${beaconsOf(n)} AS t FROM ${beacons.from}) AS g`,
  ];
};

export const generated = {
  clickhouse,
  postgres: (n: number) =>
    sqlStatements(n, (count) => ({ prefix: '', from: `generate_series(0::bigint, ${count - 1}) AS s(n)` })),
  sqlite: (n: number) =>
    sqlStatements(n, (count) => ({
      prefix: `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${count - 1})`,
      from: 's',
    })),
};

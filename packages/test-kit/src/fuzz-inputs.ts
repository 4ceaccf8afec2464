/**
 * Generators of hostile requests for the route-table fuzz (security/fuzz.test.ts): mostly plausible
 * values, so the request gets past the first checks to the database, with one field at a time turned
 * hostile (NUL and other control characters, integers past every column, wrong types, deep objects,
 * long strings).
 */
import { type FieldSpec, type Fields, REPORT_PATHS, type RouteSpec } from '@edupass/protocol';
import fc from 'fast-check';

/** Characters a text column, a log line or a screen should never be handed unchecked. */
const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r\n',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200f',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\ud800',
  '\udfff',
] as const;

const withControl = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 8 }))
  .map(([before, control, after]) => before + control + after);

const deep = fc.integer({ min: 8, max: 3000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});

export const hostileString = fc.oneof(
  withControl,
  fc.constantFrom('\u0000', 'edupass\u0000', '\u0000\u0000'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 200, max: 6000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom("' OR 1=1 --", '%00', '../../etc/passwd', '１３８００１３８０００', '9'.repeat(40), '', ' ', '-1'),
);

/** Integers past a 32-bit column, past a 64-bit one, and numbers that are not integers at all. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 63, 1e308, -0, 0.5),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -(2 ** 31) - 1 }),
);

const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
  fc.constant({ toString: '', valueOf: null }),
  deep,
);

const PLAUSIBLE_BY_RULE: Record<string, fc.Arbitrary<unknown>> = {
  phone_number: fc.integer({ min: 0, max: 99_999_999 }).map((n) => `138${String(n).padStart(8, '0')}`),
  captcha: fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')),
  password: fc.constantFrom('Secret123', 'another-pw1'),
  username: fc.stringMatching(/^[a-z][a-z0-9_]{5,12}$/),
  nickname: fc.stringMatching(/^[a-z0-9]{1,12}$/),
  fullname: fc.constantFrom('Zhang San', '张三', 'Li Si'),
  qq: fc.integer({ min: 10_000, max: 999_999_999 }).map(String),
  email: fc.stringMatching(/^[a-z]{1,8}@example\.com$/),
  description: fc.string({ maxLength: 20 }),
  sex: fc.constantFrom(0, 1),
  birthday: fc.integer({ min: -2_000_000_000, max: 1_700_000_000 }),
  agreement_ids: fc.array(fc.integer({ min: -1, max: 5 }), { minLength: 1, maxLength: 3 }),
};

const plausible = (spec: FieldSpec): fc.Arbitrary<unknown> => {
  const byRule = spec.rule ? PLAUSIBLE_BY_RULE[spec.rule] : undefined;
  if (byRule) return byRule;
  switch (spec.type) {
    case 'string':
      return fc.oneof(fc.constantFrom('edupass', '1', 'demo'), fc.string({ maxLength: 12 }));
    case 'integer':
      return fc.integer({ min: spec.min ?? -3, max: spec.max ?? 1000 });
    case 'number':
      return fc.double({ min: spec.min ?? -1000, max: spec.max ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'integer[]':
      return fc.array(fc.integer({ min: -1, max: 1000 }), { maxLength: 4 });
    case 'string[]':
      return fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 });
    case 'any':
      return fc.jsonValue({ maxDepth: 3 });
  }
};

const hostile = (spec: FieldSpec): fc.Arbitrary<unknown> => {
  switch (spec.type) {
    case 'integer':
    case 'number':
      return fc.oneof(hostileNumber, hostileString, wrongType);
    case 'integer[]':
      return fc.oneof(fc.array(hostileNumber, { minLength: 1, maxLength: 3 }), wrongType, hostileString);
    case 'string[]':
      return fc.oneof(fc.array(hostileString, { minLength: 1, maxLength: 3 }), wrongType);
    default:
      return fc.oneof(hostileString, hostileString, hostileNumber, wrongType);
  }
};

/** A value for one field: usually plausible, sometimes hostile, sometimes left out. */
const fieldValue = (spec: FieldSpec) =>
  fc.oneof(
    { weight: 5, arbitrary: plausible(spec) },
    { weight: 3, arbitrary: hostile(spec) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** An unknown field now and then, hostile too (prototype keys included). */
const withExtra = (value: Record<string, unknown>) =>
  fc
    .option(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'id'), hostileString), { freq: 6 })
    .map((extra) => (extra ? { ...value, [extra[0]]: extra[1] } : value));

/**
 * A field set: most often every field plausible but one hostile (so the hostile value reaches the
 * service and the database), sometimes all plausible, sometimes any mix.
 */
const record = (fields: Fields | undefined): fc.Arbitrary<Record<string, unknown>> => {
  const entries = Object.entries(fields ?? {});
  const build = (value: (spec: FieldSpec) => fc.Arbitrary<unknown>) =>
    fc.record(
      Object.fromEntries(entries.map(([name, spec]) => [name, value(spec)])) as Record<string, fc.Arbitrary<unknown>>,
    );
  const allPlausible = build((spec) =>
    fc.oneof({ weight: 9, arbitrary: plausible(spec) }, { weight: 1, arbitrary: fc.constant(undefined) }),
  );
  if (entries.length === 0) return allPlausible.chain(withExtra);
  const oneHostile = fc
    .tuple(allPlausible, fc.constantFrom(...entries))
    .chain(([value, [name, spec]]) => hostile(spec).map((bad) => ({ ...value, [name]: bad })));
  return fc
    .oneof(
      { weight: 5, arbitrary: oneHostile },
      { weight: 1, arbitrary: allPlausible },
      { weight: 2, arbitrary: build(fieldValue) },
    )
    .chain(withExtra);
};

/** The text with lone surrogates replaced, as a URL can only carry well-formed UTF-16. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** What a query string can carry: text, so numbers and hostile values travel as strings. */
const asQueryText = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value);

const RAW_BODIES = fc.oneof(
  fc.constantFrom('{', '{"a":}', '[]', '"text"', 'null', '\u0000', '{"a":1}}'),
  deep.map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Header values fetch can send (no control characters), hostile otherwise. */
const headerText = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/\p{Cc}/gu, '')),
  fc.integer({ min: 200, max: 4000 }).map((n) => 'A'.repeat(n)),
  fc.constantFrom('2', '1', 'undefined', '-1', '99999999999999999999'),
);

export type AuthMode = 'none' | 'user' | 'operator' | 'garbage';

export interface FuzzRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON body, or a raw string sent as is. */
  body: { json: unknown } | { raw: string } | undefined;
  auth: AuthMode;
  garbageToken: string;
}

const fillParams = (path: string, params: Record<string, unknown>) =>
  path.replace(/:([a-z_]+)/gi, (_, name: string) => {
    const text = asQueryText(params[name]) ?? '';
    return encodeURIComponent(wellFormed(text)) || '0';
  });

const authFor = (spec: RouteSpec): fc.Arbitrary<AuthMode> =>
  spec.auth === 'operator'
    ? fc.constantFrom<AuthMode>('operator', 'operator', 'operator', 'user', 'none', 'garbage')
    : spec.auth === 'none'
      ? fc.constantFrom<AuthMode>('none', 'none', 'none', 'user', 'garbage')
      : fc.constantFrom<AuthMode>('user', 'user', 'user', 'none', 'garbage', 'operator');

/** Requests for one route of the protocol table. */
export const requestsFor = (spec: RouteSpec): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      body: fc.oneof(
        { weight: 8, arbitrary: record(spec.body).map((json) => ({ json })) },
        { weight: 1, arbitrary: RAW_BODIES.map((raw) => ({ raw })) },
      ),
      query: record(spec.query),
      params: record(spec.params),
      auth: authFor(spec),
      garbageToken: headerText,
      headers: fc.record(
        {
          'x-captcha-ticket': headerText,
          'x-captcha-id': headerText,
          'auth-version': headerText,
          'x-forwarded-for': headerText,
          'user-agent': headerText,
          cookie: headerText.map((text) => `authorization=${text}`),
          'content-type': fc.constantFrom(
            'text/plain',
            'application/json; charset=latin1',
            'application/x-www-form-urlencoded',
          ),
        },
        { requiredKeys: [] },
      ),
    })
    .map(({ body, query, params, auth, garbageToken, headers }) => ({
      method: spec.method,
      path: fillParams(spec.path, params),
      query: Object.fromEntries(
        Object.entries(query).flatMap(([name, value]) => {
          const text = asQueryText(value);
          return text === undefined ? [] : [[name, text]];
        }),
      ),
      headers,
      body: spec.method === 'GET' ? undefined : body,
      auth,
      garbageToken,
    }));

const eventId = fc.stringMatching(/^[0-9A-Za-z-]{8,20}$/);

const reportEvent = fc.record({
  e: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('click', 'view') }, hostileString),
  i: fc.oneof({ weight: 4, arbitrary: eventId }, hostileString),
  t: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }) }, hostileNumber),
  d: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())),
    },
    fc.dictionary(fc.oneof(hostileString, fc.string({ maxLength: 4 })), fc.oneof(hostileString, hostileNumber), {
      maxKeys: 2,
    }),
  ),
});

/** Usage batches and monitor beacons: the collectors outside the route table. */
export const collectorRequests = (product: string): fc.Arbitrary<FuzzRequest> => {
  const base = { query: {}, headers: { 'content-type': 'text/plain' }, auth: 'none' as const, garbageToken: '' };
  const report = fc
    .record({
      m: fc.record({ d: fc.constant(1), p: fc.oneof({ weight: 5, arbitrary: fc.constant(product) }, hostileString) }),
      e: fc.record(
        { ua: fc.oneof(fc.string({ maxLength: 20 }), hostileString), uid: hostileString, cpu: hostileNumber },
        { requiredKeys: [] },
      ),
      b: fc.array(reportEvent, { minLength: 1, maxLength: 4 }),
    })
    .map((data) => ({
      ...base,
      method: 'POST',
      path: REPORT_PATHS.report(product),
      body: { raw: JSON.stringify({ type: 0, alg: '', data }) },
    }));
  const beaconFields = fc.record(
    {
      k: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('perf', 'api', 'error') }, hostileString),
      p: fc.oneof({ weight: 4, arbitrary: fc.constant(product) }, hostileString),
      pg: hostileString,
      t: fc.oneof(fc.integer({ min: 0, max: 2_000_000_000_000 }).map(String), hostileNumber.map(String)),
      n: fc.oneof(fc.constantFrom('LCP', 'boom'), hostileString),
      v: fc.oneof(fc.integer().map(String), hostileNumber.map(String)),
      u: hostileString,
      m: hostileString,
      c: fc.oneof(fc.integer({ min: 0, max: 999 }).map(String), hostileNumber.map(String)),
      s: hostileString,
    },
    { requiredKeys: ['k', 'p'] },
  );
  const beaconGet = beaconFields.map((query) => ({
    ...base,
    method: 'GET',
    path: REPORT_PATHS.beacon,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, wellFormed(v).slice(0, 900)])),
    body: undefined,
  }));
  const beaconPost = beaconFields.map((fields) => ({
    ...base,
    method: 'POST',
    path: REPORT_PATHS.beacon,
    body: { raw: new URLSearchParams(fields).toString() },
  }));
  return fc.oneof(report, beaconGet, beaconPost);
};

/** One plausible value of a field (the same on every run). */
export const plausibleValue = (spec: FieldSpec): unknown => fc.sample(plausible(spec), { seed: 1, numRuns: 1 })[0];

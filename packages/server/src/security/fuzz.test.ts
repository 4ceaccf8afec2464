/**
 * A fixed-seed property-based fuzz of every route of the protocol table (and the usage collectors),
 * anonymous and signed in: no answer is a 5xx or a hang, and every 4xx is a catalogue error in the
 * wire shape. Runs on SQLite and PostgreSQL (the server projects), where the database's own limits
 * (NUL in text, 32-bit integer columns) are what the server must refuse before they are reached.
 *
 * EDUPASS_FUZZ_RUNS sets the requests per route (default 14) and EDUPASS_FUZZ_SEED the seed.
 */
import { isServerCode, type RouteSpec, routes } from '@edupass/protocol';
import { sessionFor, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { collectorRequests, type FuzzRequest, requestsFor } from '@edupass/test-kit/fuzz-inputs';
import { useTestServer } from '@edupass/test-kit/harness';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveUser } from '../services/account/users.ts';
import { findUserById, findUserByPhone } from '../store/account/users.ts';

const RUNS = Number(process.env.EDUPASS_FUZZ_RUNS ?? 14);
const SEED = Number(process.env.EDUPASS_FUZZ_SEED ?? 20261122);
const COLLECTOR_RUNS = RUNS * 4;
const REQUEST_TIMEOUT_MS = 20_000;

const { server } = useTestServer();
let userId: number;
let operatorId: number;
let productCode: string;

const newOperator = async () => {
  const operator = await signInOperator(server);
  const found = await findUserByPhone(server.app.ctx.db, operator.phone);
  if (!found) throw new Error('the operator was not created');
  return found.id;
};

beforeAll(async () => {
  userId = (await signUp(server)).userId;
  operatorId = await newOperator();
  productCode = 'edupass';
});

/** A seed per route, so a route added to the table leaves every other route's requests unchanged. */
const seedOf = (name: string) => [...name].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);

const tokenFor = async (request: FuzzRequest): Promise<string | undefined> => {
  if (request.auth === 'user') return sessionFor(server, userId);
  if (request.auth === 'operator') return sessionFor(server, operatorId);
  if (request.auth === 'garbage') return request.garbageToken || 'x';
  return undefined;
};

interface Outcome {
  status: number;
  body: unknown;
}

const send = async (request: FuzzRequest): Promise<Outcome> => {
  const url = new URL(server.url + request.path);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...request.headers };
  const token = await tokenFor(request);
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const body =
    request.body === undefined
      ? undefined
      : 'raw' in request.body
        ? request.body.raw
        : JSON.stringify(request.body.json);
  const response = await fetch(url, {
    method: request.method,
    headers,
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed };
};

const WIRE_KEYS = ['error_category', 'error_code', 'error_message', 'error_number', 'log_uuid'];

/** Why an answer breaks the contract, or undefined when it keeps it. */
const violation = (outcome: Outcome): string | undefined => {
  if (outcome.status >= 500) return `status ${outcome.status}`;
  if (outcome.status < 400) return undefined;
  const body = outcome.body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null) return `non-JSON ${outcome.status}`;
  if (JSON.stringify(Object.keys(body).sort()) !== JSON.stringify(WIRE_KEYS)) return 'not the wire error shape';
  if (!isServerCode(body.error_code)) return `unknown code ${String(body.error_code)}`;
  if (typeof body.error_message !== 'string' || typeof body.error_number !== 'number') return 'wrong field types';
  return undefined;
};

const tally = { requests: 0, fiveHundreds: 0 };
const failures: string[] = [];

const show = (request: FuzzRequest) => JSON.stringify({ ...request, garbageToken: undefined }).slice(0, 600);

const fuzz = async (name: string, requests: FuzzRequest[]) => {
  for (const request of requests) {
    let outcome: Outcome;
    try {
      outcome = await send(request);
    } catch (error) {
      outcome = { status: 599, body: String(error) };
    }
    tally.requests++;
    if (outcome.status >= 500) tally.fiveHundreds++;
    const broken = violation(outcome);
    if (broken) failures.push(`${name}: ${broken} ${JSON.stringify(outcome.body).slice(0, 300)} ← ${show(request)}`);
    // Operator routes may block the fuzz's own accounts; unblock them so later requests still get past sign-in.
    if ((routes as Record<string, RouteSpec>)[name]?.auth === 'operator') {
      await saveUser(server.app.ctx, userId, { blocked_at: null });
      await saveUser(server.app.ctx, operatorId, { blocked_at: null });
    }
    // The account deletion (the caller's own, or an operator's of any id) may delete the fuzz's accounts.
    if (!(await findUserById(server.app.ctx.db, userId))) userId = (await signUp(server)).userId;
    if (!(await findUserById(server.app.ctx.db, operatorId))) operatorId = await newOperator();
  }
};

afterAll(() => {
  // The figure the security review asked for, per database.
  console.info(
    `fuzz on ${testDatabaseKind()}: ${tally.requests} requests, ${tally.fiveHundreds} answered 5xx, ${failures.length} broke the contract`,
  );
});

describe(`fuzz of the route table (seed ${SEED}, ${RUNS} per route)`, () => {
  const table = Object.entries(routes as Record<string, RouteSpec>);

  it.each(table)('%s', async (name, spec) => {
    const before = failures.length;
    await fuzz(name, fc.sample(requestsFor(spec), { seed: seedOf(name), numRuns: RUNS }));
    expect(failures.slice(before)).toEqual([]);
  });

  it('the usage and monitor collectors', async () => {
    const before = failures.length;
    await fuzz(
      'collectors',
      fc.sample(collectorRequests(productCode), { seed: seedOf('collectors'), numRuns: COLLECTOR_RUNS }),
    );
    expect(failures.slice(before)).toEqual([]);
  });
});

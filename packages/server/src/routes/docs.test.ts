/** The API reference: generated from the route table, so it lists exactly the table's account routes. */
import { ACCOUNTS_BASE, LEGACY_TOKENS_BASE, type RouteSpec, routeAliases, routes } from '@edupass/protocol';
import { useTestServer } from '@edupass/test-kit/harness';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';

const { server } = useTestServer();

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** "METHOD path" of every operation the document lists. */
const documented = (doc: OpenApi) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('API docs', () => {
  it('GET /docs/json is a valid OpenAPI document (checked by an OpenAPI schema validator)', async () => {
    const doc = await (await fetch(`${server.url}/docs/json`)).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 4000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('GET /docs/json lists every route of the protocol table (method and path)', async () => {
    const answer = await fetch(`${server.url}/docs/json`);
    expect(answer.status).toBe(200);
    const doc = (await answer.json()) as OpenApi;
    expect(doc.openapi).toMatch(/^3\./);
    const listed = new Set(documented(doc));
    const served = Object.values(routes as Record<string, RouteSpec>);
    expect(served.length).toBeGreaterThan(40);
    const missing = served
      .map((spec) => `${spec.method} ${spec.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((route) => !listed.has(route));
    expect(missing).toEqual([]);
  });

  it('lists nothing account- or token-related that the table lacks, but the aliases', async () => {
    const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as OpenApi;
    // Path parameters as OpenAPI spells them (`:id` → `{id}`).
    const table = new Set(
      Object.values(routes as Record<string, RouteSpec>).map((s) => `${s.method} ${s.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const extra = documented(doc).filter(
      (route) => (route.includes(`${ACCOUNTS_BASE}/`) || route.includes(LEGACY_TOKENS_BASE)) && !table.has(route),
    );
    const aliases = Object.entries(routeAliases).flatMap(([name, paths]) =>
      (paths ?? []).map((path) => `${routes[name as keyof typeof routes].method} ${path}`),
    );
    expect(extra.sort()).toEqual(aliases.sort());
    expect(aliases).toEqual(
      expect.arrayContaining([
        `PATCH ${ACCOUNTS_BASE}/profile`,
        `PUT ${LEGACY_TOKENS_BASE}/refresh`,
        `POST ${LEGACY_TOKENS_BASE}/convert`,
        `DELETE ${LEGACY_TOKENS_BASE}`,
      ]),
    );
  });

  it('GET /docs answers a browsable HTML page', async () => {
    const answer = await fetch(`${server.url}/docs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(await answer.text()).toMatch(/<html/i);
  });
});

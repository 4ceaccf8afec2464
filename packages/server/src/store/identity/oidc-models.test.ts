/**
 * The provider's rows written as a request writes them (store/identity/oidc-writes.ts) and read
 * (oidc-models.ts): the upsert is compiled once for each number of rows up to eight and built at each
 * call past that; every column lands where it belongs in both, a second save of a row replaces it, and
 * a consumed row stays consumed. A request's deletions and saves (on PostgreSQL one statement, compiled
 * once for each number of each up to four and eight) delete and save what they name, compiled or built.
 * On PostgreSQL the token endpoint's consumption and saves are one statement: it saves only what the
 * consumption allows, and a second presentation of the same code saves nothing.
 */
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { useTestStore } from '@edupass/test-kit/test-store';
import { type CompiledQuery, Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteConnection } from '../db.ts';
import type { Database } from '../schema.ts';
import { deleteApplication } from './applications.ts';
import {
  destroyModelByUid,
  findModel,
  findModelsOfAccount,
  findTokenWithGrantAndSession,
  revokeModelsOfGrant,
} from './oidc-models.ts';
import {
  consumeModel,
  consumesInOneStatement,
  consumeThenSave,
  type StoredModel,
  upsertModels,
  writeModels,
} from './oidc-writes.ts';

const store = useTestStore();

const rowOf = (batch: string, i: number): StoredModel => ({
  model: i % 2 ? 'AccessToken' : 'Session',
  id: `${batch}-id-${i}`,
  payload: JSON.stringify({ batch, i }),
  grantId: `${batch}-grant-${i}`,
  uid: `${batch}-uid-${i}`,
  userCode: `${batch}-code-${i}`,
  accountId: String(100 + i),
  clientId: `${batch}-client-${i}`,
  sessionUid: `${batch}-session-${i}`,
  expiresAt: 4_000_000_000_000 + i,
});

const stored = (ids: string[]) =>
  store()
    .db.selectFrom('oidc_models')
    .select(['model', 'id', 'payload', 'grant_id', 'uid', 'user_code', 'account_id', 'client_id', 'session_uid'])
    .select(['consumed_at', 'expires_at'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();

/** The rows as stored, the expiry as a number (PostgreSQL's bigint reads as a string). */
const readBack = async (ids: string[]) =>
  (await stored(ids)).map((row) => ({ ...row, expires_at: Number(row.expires_at) }));

const asStored = (row: StoredModel) => ({
  model: row.model,
  id: row.id,
  payload: row.payload,
  grant_id: row.grantId,
  uid: row.uid,
  user_code: row.userCode,
  account_id: row.accountId,
  client_id: row.clientId,
  session_uid: row.sessionUid,
  consumed_at: null,
  expires_at: row.expiresAt,
});

describe("the provider's rows", () => {
  it.each([1, 3, 8, 9])(
    '%i rows in one upsert: each column where it belongs, again on a second save',
    async (count) => {
      const rows = Array.from({ length: count }, (_, i) => rowOf(`n${count}`, i));
      await upsertModels(store().db, rows);
      const ids = rows.map((row) => row.id);
      expect(await readBack(ids)).toEqual(rows.map(asStored).sort((a, b) => a.id.localeCompare(b.id)));

      const again = rows.map((row) => ({ ...row, payload: JSON.stringify({ again: row.id }), uid: null }));
      await upsertModels(store().db, again);
      const reread = await stored(ids);
      expect(reread.map((row) => [row.id, row.payload, row.uid])).toEqual(
        again.map((row) => [row.id, row.payload, null]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
    },
  );

  it.each([
    [1, 3],
    [5, 9],
  ])("%i rows deleted and %i saved in one request's write, twice with the same numbers", async (deleted, saved) => {
    for (const round of ['first', 'second']) {
      const batch = `w${deleted}-${saved}-${round}`;
      const gone = Array.from({ length: deleted }, (_, i) => rowOf(`${batch}-gone`, i));
      await upsertModels(store().db, gone);
      const saves = Array.from({ length: saved }, (_, i) => rowOf(batch, i));
      await writeModels(store().db, gone, saves);
      expect(await stored(gone.map((row) => row.id))).toEqual([]);
      expect(await readBack(saves.map((row) => row.id))).toEqual(
        saves.map(asStored).sort((a, b) => a.id.localeCompare(b.id)),
      );
    }
  });

  it('a consumed row stays consumed when saved again, and is consumed once', async () => {
    const row = rowOf('consumed', 1);
    await upsertModels(store().db, [row]);
    expect(await consumeModel(store().db, row.model, row.id, 123)).toBe(true);
    expect(await consumeModel(store().db, row.model, row.id, 456)).toBe(false);
    await upsertModels(store().db, [{ ...row, payload: '{"saved":"again"}' }]);
    const [read] = await stored([row.id]);
    expect(Number(read?.consumed_at)).toBe(123);
    expect(read?.payload).toBe('{"saved":"again"}');
  });
});

/** The provider's lookups other than by primary key, each by the index it reads. */
const LOOKUP_INDEXES = {
  oidc_models_grant: 'grant_id',
  oidc_models_uid_model: 'uid',
  oidc_models_account: 'account_id',
  oidc_models_client: 'client_id',
} as const;

describe("the provider's indexes: only rows with a value", () => {
  const far = 4_000_000_000_000;
  /** As the provider saves them: an interaction has no grant, uid, account or application yet. */
  const interaction: StoredModel = {
    model: 'Interaction',
    id: 'ix-1',
    payload: '{}',
    grantId: null,
    uid: null,
    userCode: null,
    accountId: null,
    clientId: null,
    expiresAt: far,
  };
  const session = { ...interaction, model: 'Session', id: 'ix-session', uid: 'ix-uid', accountId: '77' };
  const grant = { ...interaction, model: 'Grant', id: 'ix-grant', accountId: '77', clientId: 'ix-app' };
  const token = {
    ...interaction,
    model: 'AccessToken',
    id: 'ix-token',
    grantId: 'ix-grant',
    accountId: '77',
    clientId: 'ix-app',
    sessionUid: 'ix-uid',
  };

  it('each lookup index leaves out the rows without its value, and every lookup still finds its rows', async () => {
    const { db, dialect } = store();
    const definitions =
      dialect === 'postgres'
        ? (
            await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition
              from pg_indexes where tablename = 'oidc_models'`.execute(db)
          ).rows
        : (
            await sql<{ name: string; definition: string }>`select name, sql as definition
              from sqlite_master where type = 'index' and tbl_name = 'oidc_models'`.execute(db)
          ).rows;
    for (const [name, column] of Object.entries(LOOKUP_INDEXES)) {
      const definition = definitions.find((row) => row.name === name)?.definition ?? `no index ${name}`;
      expect(definition.replace(/[()"]/g, '').toLowerCase()).toContain(`where ${column} is not null`);
    }

    await upsertModels(db, [interaction, session, grant, token]);
    const now = far - 1;
    expect(await findModel(db, 'Session', { column: 'uid', value: 'ix-uid' }, now)).toBeDefined();
    expect(
      (await findTokenWithGrantAndSession(db, 'AccessToken', 'ix-token', now)).map((row) => row.id).sort(),
    ).toEqual(['ix-grant', 'ix-session', 'ix-token']);
    expect((await findModelsOfAccount(db, 'Grant', '77', now)).map((row) => row.id)).toEqual(['ix-grant']);
    await revokeModelsOfGrant(db, 'ix-grant');
    await destroyModelByUid(db, 'Session', 'ix-uid');
    const left = await db.selectFrom('oidc_models').select('id').where('id', 'like', 'ix-%').orderBy('id').execute();
    expect(left.map((row) => row.id)).toEqual(['ix-1', 'ix-grant']);
  });

  // PostgreSQL's plans of these reads are held by store/indexed-paths.test.ts (generic plans, no statistics).
  it.runIf(testDatabaseKind() === 'sqlite')('SQLite reads each lookup through its index', async () => {
    const connection = sqliteConnection(store().db);
    if (connection === undefined) throw new Error('not SQLite');
    const captured: CompiledQuery[] = [];
    const logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: connection }),
      log: (event) => {
        if (event.level === 'query') captured.push(event.query);
      },
    });
    const now = far - 1;
    await findModel(logged, 'Session', { column: 'uid', value: 'ix-uid' }, now);
    await findTokenWithGrantAndSession(logged, 'AccessToken', 'ix-token', now);
    await findModelsOfAccount(logged, 'Grant', '77', now);
    await revokeModelsOfGrant(logged, 'ix-grant');
    await destroyModelByUid(logged, 'Session', 'ix-uid');
    await deleteApplication(logged, 'ix-app');
    const plans = captured
      .filter((query) => query.sql.includes('oidc_models'))
      .map((query) =>
        connection
          .prepare(`explain query plan ${query.sql}`)
          .all(...(query.parameters as unknown[]))
          .map((row) => (row as { detail: string }).detail)
          .join(' | '),
      );
    expect(plans).toHaveLength(6);
    for (const plan of plans) expect(plan).not.toMatch(/SCAN oidc_models/);
    for (const name of Object.keys(LOOKUP_INDEXES)) expect(plans.join('\n')).toContain(`USING INDEX ${name}`);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('a consumption with the saves it allows, in one statement', () => {
  it.each([1, 2, 9])(
    'consumes the row and saves %i rows; presented again, consumes and saves nothing',
    async (count) => {
      const code = rowOf(`code${count}`, 0);
      await upsertModels(store().db, [code]);
      const consumption = { model: code.model, id: code.id, at: 789 };
      const first = Array.from({ length: count }, (_, i) => rowOf(`first${count}`, i + 1));
      expect(consumesInOneStatement(store().db, [consumption], [], first)).toBe(true);
      expect(await consumeThenSave(store().db, consumption, first)).toBe(true);
      const read = (await stored(first.map((row) => row.id))).map((row) => ({
        ...row,
        expires_at: Number(row.expires_at),
      }));
      expect(read).toEqual(first.map(asStored).sort((a, b) => a.id.localeCompare(b.id)));
      expect(Number((await stored([code.id]))[0]?.consumed_at)).toBe(789);

      const second = Array.from({ length: count }, (_, i) => rowOf(`second${count}`, i + 1));
      expect(await consumeThenSave(store().db, { ...consumption, at: 790 }, second)).toBe(false);
      expect(await stored(second.map((row) => row.id))).toEqual([]);
      expect(Number((await stored([code.id]))[0]?.consumed_at)).toBe(789);
    },
  );

  it('a save of an existing row replaces it and leaves its consumption', async () => {
    const [code, token] = [rowOf('replace', 0), rowOf('replace', 1)];
    await upsertModels(store().db, [code, token]);
    await consumeModel(store().db, token.model, token.id, 55);
    const saved = { ...token, payload: '{"replaced":true}', expiresAt: 4_100_000_000_000 };
    expect(await consumeThenSave(store().db, { model: code.model, id: code.id, at: 56 }, [saved])).toBe(true);
    const [read] = await stored([token.id]);
    expect([read?.payload, Number(read?.expires_at), Number(read?.consumed_at)]).toEqual([
      '{"replaced":true}',
      4_100_000_000_000,
      55,
    ]);
  });

  it('is not used for a deletion, several consumptions, no saves, or a save of the consumed row', () => {
    const [code, token] = [rowOf('not', 0), rowOf('not', 1)];
    const consumption = { model: code.model, id: code.id, at: 1 };
    const db = store().db;
    expect(consumesInOneStatement(db, [consumption], [{ model: 'Interaction', id: 'x' }], [token])).toBe(false);
    expect(consumesInOneStatement(db, [consumption, { ...consumption, id: 'other' }], [], [token])).toBe(false);
    expect(consumesInOneStatement(db, [consumption], [], [])).toBe(false);
    expect(consumesInOneStatement(db, [consumption], [], [token, code])).toBe(false);
  });
});

/**
 * The tamper-evident audit, over HTTP on a real server and through `edupass audit verify`: operators'
 * actions and reads of records chain as they are written, under parallel writes too; a row changed, one
 * deleted from the middle and two swapped are each found, as the first broken link with its row id and
 * time; retention drops the oldest segment and keeps its anchor, and the chain still verifies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS, routes } from '@edupass/protocol';
import { type Account, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { runCliOn } from '@edupass/test-kit/cli-run';
import { pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import { recordAudit } from '../../store/admin/admin.ts';
import { sweepOnce } from '../platform/housekeeping.ts';

let offset = 0;
const { server, call } = useTestServer({}, { now: () => Date.now() + offset });
const db = () => server.app.ctx.db;

let operator: { token: string };
let people: Account[];

/** An operator's action that writes an audit row: ending a person's sessions. */
const endSessions = async (person: Account) =>
  expect(
    (
      await call(
        'POST',
        pathOf(routes.revokeUserSessions.path, { id: person.userId }),
        {},
        {
          token: operator.token,
        },
      )
    ).status,
  ).toBe(204);

/** An operator's read of an adult's record: a row of the access log. */
const readRecord = async (person: Account) =>
  expect(
    (await call('GET', pathOf(routes.getUser.path, { id: person.userId }), undefined, { token: operator.token }))
      .status,
  ).toBe(200);

const verify = () => runCliOn(server, ['audit', 'verify']);

const auditRows = () =>
  db().selectFrom('admin_audit').selectAll().where('chain_seq', 'is not', null).orderBy('chain_seq').execute();

/** The row at the middle of the audit's chain. */
const middleRow = async () => {
  const rows = await auditRows();
  const row = rows[Math.floor(rows.length / 2)];
  if (!row) throw new Error('no audit rows');
  return row;
};

beforeAll(async () => {
  operator = await signInOperator(server);
  people = await Promise.all(Array.from({ length: 6 }, () => signUp(server)));
  for (const person of people) {
    await endSessions(person);
    await readRecord(person);
  }
});

describe('edupass audit verify', () => {
  test('a chain of operators’ actions and reads verifies; its places have no gaps', async () => {
    const { code, lines } = await verify();
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^✓ admin_audit: \d+ links hold/);
    expect(lines[1]).toMatch(/^✓ edu_access_log: \d+ links hold/);
    const places = (await auditRows()).map((row) => Number(row.chain_seq));
    expect(places).toEqual(places.map((_, i) => i + 1));
  });

  test('an altered row is found, by its id and time', async () => {
    const row = await middleRow();
    await db().updateTable('admin_audit').set({ detail: 'nothing happened' }).where('id', '=', row.id).execute();
    const { code, lines } = await verify();
    expect(code).toBe(1);
    expect(lines[0]).toBe(
      `✗ admin_audit: first broken link row ${row.id} (place ${row.chain_seq}, ${new Date(Number(row.at)).toISOString()}): ` +
        'its content or its link does not match the link before it (changed, or moved from its place).',
    );
    await db().updateTable('admin_audit').set({ detail: row.detail }).where('id', '=', row.id).execute();
    expect((await verify()).code).toBe(0);
  });

  test('a row deleted from the middle is found: the row after it names the gap', async () => {
    const row = await middleRow();
    const next = (await auditRows()).find((r) => Number(r.chain_seq) === Number(row.chain_seq) + 1);
    await db().deleteFrom('admin_audit').where('id', '=', row.id).execute();
    const { code, lines } = await verify();
    expect(code).toBe(1);
    expect(lines[0]).toContain(`first broken link row ${next?.id} (place ${next?.chain_seq}`);
    expect(lines[0]).toContain('the row before it in the chain is missing (deleted)');
    await db().insertInto('admin_audit').values(row).execute();
    expect((await verify()).code).toBe(0);
  });

  test('two rows swapped in the chain are found', async () => {
    const reads = await db()
      .selectFrom('edu_access_log')
      .select(['id', 'chain_seq', 'created_at'])
      .where('chain_seq', 'is not', null)
      .orderBy('chain_seq')
      .execute();
    const [first, second] = reads.slice(1, 3);
    if (!first || !second) throw new Error('too few reads');
    const place = (id: number, seq: number) =>
      db().updateTable('edu_access_log').set({ chain_seq: seq }).where('id', '=', id).execute();
    const swap = async (a: number, b: number) => {
      await place(first.id, -1);
      await place(second.id, a);
      await place(first.id, b);
    };
    await swap(Number(first.chain_seq), Number(second.chain_seq));
    const { code, lines } = await verify();
    expect(code).toBe(1);
    expect(lines[1]).toContain(`✗ edu_access_log: first broken link row ${second.id} (place ${first.chain_seq}`);
    await swap(Number(second.chain_seq), Number(first.chain_seq));
    expect((await verify()).code).toBe(0);
  });

  test('a chain built under 50 parallel writes verifies', async () => {
    const before = (await auditRows()).length;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const person = people[i % people.length] as Account;
        return i % 2 === 0 ? endSessions(person) : endSessions(person).then(() => readRecord(person));
      }),
    );
    const places = (await auditRows()).map((row) => Number(row.chain_seq));
    expect(places.length).toBe(before + 50);
    expect(places).toEqual(places.map((_, i) => i + 1));
    const { code, lines } = await verify();
    expect(lines.join('\n')).not.toContain('✗');
    expect(code).toBe(0);
  });

  test('appends asked for while one is written go together: fewer commits than rows, each row once, the chain whole', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      operator_id: 1,
      action: 'test.grouped',
      target: `user:${i}`,
      detail: '',
      at: Date.now(),
    }));
    await Promise.all(rows.map((row) => recordAudit(db(), server.app.ctx.keys.audit, row)));
    const written = await db()
      .selectFrom('admin_audit')
      .select('target')
      .where('action', '=', 'test.grouped')
      .execute();
    expect(written.map((row) => row.target).sort()).toEqual(rows.map((row) => row.target).sort());
    if (server.app.ctx.store.dialect === 'postgres') {
      // Rows one transaction wrote share its id (xmin): 40 appends at once took fewer commits.
      const { rows: commits } = await sql<{ n: number }>`
        select count(distinct xmin::text)::int as n from admin_audit where action = 'test.grouped'`.execute(db());
      expect(Number(commits[0]?.n)).toBeLessThan(40);
    }
    const { code } = await verify();
    expect(code).toBe(0);
  });
});

describe('nothing deletes audit rows but retention', () => {
  test('no route deletes from the audit, and only the chains’ module deletes from either table', () => {
    const auditRoutes = Object.values(routes).filter((route) => /audit|access-log|reads/.test(route.path));
    expect(auditRoutes.filter((route) => route.method === 'DELETE')).toEqual([]);
    const src = join(import.meta.dirname, '../..');
    const deleting = (readdirSync(src, { recursive: true }) as string[]).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        /deleteFrom\('(admin_audit|edu_access_log)'|delete from (admin_audit|edu_access_log)/i.test(
          readFileSync(join(src, file), 'utf8'),
        ),
    );
    expect(deleting).toEqual([]);
  });
});

describe('retention', () => {
  test('drops the old segment of each chain, keeps its anchor, and the chain still verifies', async () => {
    const old = await auditRows();
    const last = old.at(-1);
    // Later: the rows written so far are past AUDIT_RETENTION_DAYS; two more are written now.
    offset = (server.config.auditRetentionDays + 1) * DAY_MS;
    operator = await signInOperator(server);
    await endSessions(people[0] as Account);
    await endSessions(people[1] as Account);
    expect(await sweepOnce(server.app.ctx)).toBe(true);
    const kept = await auditRows();
    expect(kept.map((row) => row.action)).toEqual(['user.sessions.revoke', 'user.sessions.revoke']);
    expect(kept.map((row) => Number(row.chain_seq))).toEqual([
      Number(last?.chain_seq) + 1,
      Number(last?.chain_seq) + 2,
    ]);
    const head = await db()
      .selectFrom('audit_chains')
      .selectAll()
      .where('chain', '=', 'admin_audit')
      .executeTakeFirstOrThrow();
    expect({ seq: Number(head.anchor_seq), link: head.anchor_link }).toEqual({
      seq: Number(last?.chain_seq),
      link: last?.chain_link,
    });
    const { code, lines } = await verify();
    expect(lines[0]).toBe(`✓ admin_audit: 2 links hold from the anchor at place ${last?.chain_seq}.`);
    expect(code).toBe(0);
    // An anchor not written with the audit key is found.
    await db()
      .updateTable('audit_chains')
      .set({ anchor_seq: Number(head.anchor_seq) - 1 })
      .where('chain', '=', 'admin_audit')
      .execute();
    expect((await verify()).code).toBe(1);
    await db()
      .updateTable('audit_chains')
      .set({ anchor_seq: head.anchor_seq })
      .where('chain', '=', 'admin_audit')
      .execute();
    offset = 0;
  });
});

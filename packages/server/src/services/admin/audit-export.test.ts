/**
 * The auditor's exports through the real server and the CLI: the audit log and the log of reads of
 * people's records as CSV, the auditor's alone (the system and security operators refused), the
 * exporter's own rows left out, and each export itself an audit row another auditor sees. Nothing
 * deletes audit rows: no route does.
 */
import { type AuditEntry, type AuditExport, routes } from '@edupass/protocol';
import { auditorToken, expectError, nextPhone, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { runCliOn } from '@edupass/test-kit/cli-run';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';
import { findUserByPhone } from '../../store/account/users.ts';
import { appendAudit } from '../../store/admin/audit-chain.ts';
import { EXPORT_PAGE_ROWS, exportAuditLog } from './audit-export.ts';

const { server, call } = useTestServer();

const exportOf = (token: string, log: string) =>
  call<AuditExport>('GET', `${routes.exportAuditLog.path}?log=${log}`, undefined, { token });

describe("the auditor's exports", () => {
  test('the auditor exports the audit log and the reads as CSV; other duties are refused', async () => {
    const system = await signInOperator(server, nextPhone(), ['system']);
    const auditor = await signInOperator(server, nextPhone(), ['auditor']);
    const user = await signUp(server);
    expect((await call('POST', `/admin/users/${user.userId}/block`, {}, { token: system.token })).status).toBe(204);
    // The system operator reads the user's record: a row of the read log.
    expect((await call('GET', `/admin/users/${user.userId}`, undefined, { token: system.token })).status).toBe(200);

    const audit = await exportOf(auditor.token, 'audit');
    expect(audit.status).toBe(200);
    const lines = audit.body.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,operator_id,operator_phone,action,target,detail');
    expect(lines.some((line) => line.includes(`,${system.phone},user.block,user:${user.userId},`))).toBe(true);
    expect(audit.body.rows).toBe(lines.length - 1);

    const reads = await exportOf(auditor.token, 'reads');
    const readLines = reads.body.csv.trimEnd().split('\r\n');
    expect(readLines[0]).toBe('id,at,reader_id,reader_role,subject_id,fields,purpose,reason');
    expect(readLines.some((line) => line.includes(`,operator,${user.userId},`))).toBe(true);

    for (const token of [system.token, (await signInOperator(server, nextPhone(), ['security'])).token]) {
      expectError(await exportOf(token, 'audit'), 'E_4');
      expectError(await exportOf(token, 'reads'), 'E_4');
    }
    expectError(await exportOf(auditor.token, 'everything'), 'E_1');
  });

  test("the export is audited; the exporter's own rows are not in theirs; another auditor sees it", async () => {
    const everything = await signInOperator(server, nextPhone(), ['system', 'security', 'auditor']);
    const user = await signUp(server);
    expect((await call('POST', `/admin/users/${user.userId}/block`, {}, { token: everything.token })).status).toBe(204);
    const own = await exportOf(everything.token, 'audit');
    expect(own.body.csv).not.toContain(`user:${user.userId}`);

    const entries = await call<AuditEntry[]>('GET', `${routes.listAudit.path}?action=audit.export`, undefined, {
      token: await auditorToken(server),
    });
    expect(entries.body).toContainEqual(
      expect.objectContaining({ action: 'audit.export', target: 'log:audit', operator_phone: everything.phone }),
    );
    const other = await exportOf(await auditorToken(server), 'audit');
    expect(other.body.csv).toContain(`user:${user.userId}`);
    expect(other.body.csv).toContain(`,${everything.phone},audit.export,log:audit,`);
  });

  test('no route deletes audit or read rows', () => {
    const deleting = Object.entries(routes).filter(
      ([, spec]) => spec.method === 'DELETE' && /audit|access-log|reads/.test(spec.path),
    );
    expect(deleting).toEqual([]);
  });

  test('the CLI exports in the name of an auditor, and refuses anyone else', async () => {
    const auditor = await signInOperator(server, nextPhone(), ['auditor']);
    const system = await signInOperator(server, nextPhone(), ['system']);
    const run = await runCliOn(server, ['audit', 'export', '--log', 'reads', '--as', auditor.phone]);
    expect(run.code).toBe(0);
    expect(run.lines.join('\n').split('\r\n')[0]).toBe('id,at,reader_id,reader_role,subject_id,fields,purpose,reason');
    await expect(runCliOn(server, ['audit', 'export', '--log', 'audit', '--as', system.phone])).rejects.toThrow(
      /auditor duty/,
    );
    await expect(runCliOn(server, ['audit', 'export', '--log', 'audit'])).rejects.toThrow(/auditor duty/);
    const entries = await call<AuditEntry[]>('GET', `${routes.listAudit.path}?action=audit.export`, undefined, {
      token: await auditorToken(server),
    });
    expect(entries.body).toContainEqual(
      expect.objectContaining({ target: 'log:reads', operator_phone: auditor.phone }),
    );
  });

  test('an export longer than a page streams every row once, in id order, the same by route, CLI and any page size', async () => {
    const auditor = await signInOperator(server, nextPhone(), ['auditor']);
    const system = await signInOperator(server, nextPhone(), ['system']);
    const { ctx } = server.app;
    const idOf = async (phone: string) => (await findUserByPhone(ctx.db, phone))?.id ?? 0;
    const many = EXPORT_PAGE_ROWS + 345;
    const at = ctx.now();
    const systemId = await idOf(system.phone);
    await appendAudit(
      ctx.db,
      ctx.keys.audit,
      Array.from({ length: many }, (_, i) => ({
        operator_id: systemId,
        action: 'user.block' as const,
        target: `user:${900_000 + i}`,
        detail: i % 3 === 0 ? 'with, a comma and a "quote"' : '',
        at,
      })),
    );

    const answer = await exportOf(auditor.token, 'audit');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const lines = answer.body.csv.trimEnd().split('\r\n');
    expect(answer.body.rows).toBe(lines.length - 1);
    expect(answer.body.rows).toBeGreaterThan(many);
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const mine = lines.filter((line) => line.includes(',user.block,user:9'));
    expect(mine).toHaveLength(many);
    expect(mine[0]).toContain(',"with, a comma and a ""quote"""');

    // The CLI prints the same CSV (the export's own audit row aside, which the next export shows).
    const run = await runCliOn(server, ['audit', 'export', '--log', 'audit', '--as', auditor.phone]);
    expect(run.code).toBe(0);
    const printed = run.lines.join('\n').split('\r\n');
    expect(printed.slice(0, lines.length - 1)).toEqual(lines.slice(0, -1));

    // Small pages give the same text as the default ones.
    const auditorId = await idOf(auditor.phone);
    const window = { log: 'audit', from: at, to: at };
    const textOf = async (pageRows: number) => {
      let text = '';
      for await (const chunk of (await exportAuditLog(ctx, auditorId, window, pageRows)).chunks) text += chunk;
      return text;
    };
    const small = await textOf(7);
    expect(small.split('\r\n')).toHaveLength(many + 2);
    expect(small).toBe(await textOf(EXPORT_PAGE_ROWS));
  });
});

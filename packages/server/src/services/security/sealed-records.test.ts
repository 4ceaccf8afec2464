/**
 * Children's records encrypted at rest (Provisions on the Cyber Protection of Children's Personal
 * Information, art. 16): a copy of the database — `pg_dump` of PostgreSQL, the SQLite file and its
 * write-ahead log — holds no child's phone, e-mail address, name or birth month, not even in the
 * webhook log, while sign-in by that phone, the operator's search, every screen and the platform's
 * sites (their signed webhooks) still see them; a database from before is sealed in place at start,
 * and a rotation of the record keys is followed without downtime.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { type NewWebhookEndpoint, routes, WEBHOOK_EVENT_TYPES } from '@edupass/protocol';
import { A, codeFor, PASSWORD, PID, signIn, signUp } from '@edupass/test-kit/accounts';
import { bornYearsAgo, eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { type Kysely, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { deleteSetting } from '../../store/admin/settings.ts';
import { sqliteConnection } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { sweepOnce } from '../platform/housekeeping.ts';
import { loadRecordKeys, recordSealer, rotateRecords, sealedGeneration } from './record-keys.ts';

const { server, call } = useTestServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const edu = eduSteps(server, call);

const silent = { info: () => {}, warn: () => {}, error: () => {} } as unknown as Parameters<typeof rotateRecords>[2];

/** Everything a copy of the database holds, as text: `pg_dump`, or the SQLite file and its WAL. */
const copyOfDatabase = (): string => {
  const url = server.config.databaseUrl;
  if (url.startsWith('postgres')) {
    // The newest installed PostgreSQL's pg_dump (the one the suite's server runs), else the one on PATH.
    const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
    const bin = versions.length > 0 ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : undefined;
    return execFileSync(bin && existsSync(`${bin}/pg_dump`) ? `${bin}/pg_dump` : 'pg_dump', ['--no-owner', url], {
      maxBuffer: 256 * 1024 * 1024,
    }).toString('utf8');
  }
  const sqlite = sqliteConnection(server.app.ctx.db);
  if (sqlite === undefined) throw new Error('no SQLite connection');
  // The WAL copied back into the file (a backup copies the file): what rows no longer hold (the dev
  // outbox the test emptied) is zeroed in its page (secure_delete), not left to be read.
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return [url, `${url}-wal`]
    .filter(existsSync)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
};

/** The tables and columns that hold `text` (to name them when a copy holds it). */
const holders = async (text: string) => {
  const raw = server.app.ctx.db.withoutPlugins();
  const found: string[] = [];
  for (const table of await raw.introspection.getTables()) {
    for (const column of table.columns) {
      const hits = await raw
        .selectFrom(table.name as 'users')
        .select(sql<number>`count(*)`.as('n'))
        .where(sql.ref(column.name), 'like', `%${text}%`)
        .executeTakeFirst()
        .catch(() => undefined);
      if (Number(hits?.n ?? 0) > 0) found.push(`${table.name}.${column.name}`);
    }
  }
  return found.join(', ') || 'no table (an old page or the WAL)';
};

/** How `text` looks in a copy: UTF-8 bytes read as Latin-1 (the SQLite file), or as itself (a dump). */
const spellings = (text: string) => [text, Buffer.from(text, 'utf8').toString('latin1')];

/** A child under 14 with a phone, an e-mail address and a full name; a pupil a teacher named. */
const childWithRecords = async () => {
  const month = bornYearsAgo(9);
  const child = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: month });
  const email = `kid${Date.now().toString(36)}@example.org`;
  const captcha = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: child.token });
  edu.ok(await call('PATCH', `${A}/email/bind`, { email, captcha }, { token: child.token }), 204);
  const birthday = Math.floor(Date.parse(`${month}-15T00:00:00Z`) / 1000);
  edu.ok(await call('PATCH', `${A}/info`, { fullname: '林小雨', birthday }, { token: child.token }), 204);
  return { ...child, email, month, fullname: '林小雨' };
};

const storedUser = (id: number) =>
  server.app.ctx.db
    .withoutPlugins()
    .selectFrom('users')
    .select(['phone', 'email', 'fullname', 'birth_year_month', 'phone_index', 'email_index'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const searchFinds = async (q: string, userId: number) => {
  const token = await edu.operatorToken();
  const page = edu.ok<{ items: { id: number; phone: string | null }[] }>(
    await call('GET', `${routes.searchUsers.path}?q=${encodeURIComponent(q)}`, undefined, { token }),
  );
  return page.items.some((user) => user.id === userId);
};

/** A site of the platform's product hearing every account event, as the webhook log's rows are written. */
const webhookSite = async () => {
  const receiver = await startWebhookReceiver();
  const token = await edu.operatorToken();
  const events = [...WEBHOOK_EVENT_TYPES];
  const endpoint = edu.ok<NewWebhookEndpoint>(
    await call('POST', '/admin/webhooks', { product: PID, url: receiver.url, events }, { token }),
  );
  const verifier = new Webhook(endpoint.secret.replace(/^whsec_/, ''));
  /** The bodies the site was sent, each checked against its signature. */
  const bodies = () =>
    receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) && r.body);
  /** The site goes: its endpoint is removed, so no later change of this file is sent to it. */
  const close = async () => {
    edu.ok(await call('POST', `/admin/webhooks/${endpoint.id}/remove`, {}, { token }), 204);
    await receiver.close();
  };
  return { bodies, close };
};

describe('children’s records at rest', () => {
  test('a copy of the database holds no child’s phone, e-mail, name or birth month; sign-in and search still find them', async () => {
    const site = await webhookSite();
    const child = await childWithRecords();
    // The platform's site hears the child's new name, signed, as it was typed; the log keeps it sealed.
    await expect.poll(() => site.bodies().join('\n'), { timeout: 30_000 }).toContain(child.fullname);
    await site.close();
    const schoolId = await edu.addSchool('海淀实验小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    const [pupil] = await edu.createPupils(teacher, classId, ['欧阳子涵']);
    // An adult's records stay as they were, changed or not: the operator's search by part of a number keeps working.
    const adult = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(40) });
    edu.ok(await call('PATCH', `${A}/info`, { fullname: '林大海' }, { token: adult.token }), 204);
    expect(await storedUser(adult.userId)).toMatchObject({ phone: adult.phone, fullname: '林大海' });

    // The dev outbox (a development convenience, off in production) keeps the codes it was sent.
    await server.app.ctx.db.deleteFrom('outbox').execute();
    const copy = copyOfDatabase();
    for (const secret of [child.phone, child.phone.slice(-8), child.email, child.fullname, child.month, '欧阳子涵']) {
      if (spellings(secret).some((spelling) => copy.includes(spelling))) {
        expect.fail(`${secret} is in the copy: ${await holders(secret)}`);
      }
    }
    expect(copy).toContain(adult.phone);

    const stored = await storedUser(child.userId);
    for (const value of [stored.phone, stored.email, stored.fullname, stored.birth_year_month]) {
      expect(sealedGeneration(String(value))).toBeGreaterThan(0);
    }
    expect(stored.phone_index).toMatch(/^[\w-]{43}$/);

    // Sign-in by the phone, and by the e-mail address, finds the child; the account reads as it is.
    expect((await signIn(server, child.phone)).access.token).toBeTruthy();
    expect((await signIn(server, child.email)).access.token).toBeTruthy();
    const profile = edu.ok<{ fullname: string; birthday: number }>(
      await call('GET', `${A}/profile`, undefined, { token: child.token }),
    );
    expect(profile.fullname).toBe(child.fullname);
    // A child's birthday is not kept at all (the year and month, sealed, are all the service needs).
    expect(profile.birthday).toBe(0);
    // The operator finds the child by the whole phone and the whole address; the adult by part of a number too.
    expect(await searchFinds(child.phone, child.userId)).toBe(true);
    expect(await searchFinds(child.email, child.userId)).toBe(true);
    expect(await searchFinds(adult.phone.slice(-6), adult.userId)).toBe(true);
    // The class shows the pupil by the name the teacher typed.
    const detail = edu.ok(await edu.classDetail(teacher.token, classId));
    expect(JSON.stringify(detail)).toContain('欧阳子涵');
    // The card sheet prints it from the stored (sealed) name.
    expect((await edu.cardSheet(teacher, classId, 'zh-CN', [Number(pupil?.user_id)])).html).toContain('欧阳子涵');
  });

  test('a database from before is sealed in place at start; the blind index keeps a phone unique across sealed and plain rows', async () => {
    const child = await childWithRecords();
    const { db } = server.app.ctx;
    // As a database from before sealing kept it: plain values, no indexes.
    await db
      .withoutPlugins()
      .updateTable('users')
      .set({
        phone: child.phone,
        email: child.email,
        fullname: child.fullname,
        birth_year_month: child.month,
        phone_index: null,
        email_index: null,
      })
      .where('id', '=', child.userId)
      .execute();
    // Found by the column meanwhile.
    expect((await signIn(server, child.phone)).access.token).toBeTruthy();
    // The webhook log of a version that kept payloads as sent.
    const payload = JSON.stringify({ type: 'user.updated', data: { user_id: child.userId, fullname: child.fullname } });
    await db
      .withoutPlugins()
      .insertInto('webhook_events')
      .values({
        id: `msg_before${child.userId}`,
        type: 'user.updated',
        pid: PID,
        payload,
        user_id: child.userId,
        created_at: Date.now(),
      })
      .execute();
    await deleteSetting(db, 'records-sealed-under');
    // The sweep (at start and hourly) seals it in place.
    expect(await sweepOnce(server.app.ctx)).toBe(true);
    const stored = await storedUser(child.userId);
    expect(stored.phone).not.toContain(child.phone.slice(-8));
    expect(stored.fullname).not.toContain(child.fullname);
    expect(stored.birth_year_month).not.toContain(child.month);
    expect(stored.phone_index).not.toBeNull();
    expect((await signIn(server, child.phone)).access.token).toBeTruthy();
    const event = (handle: Kysely<Database>) =>
      handle
        .selectFrom('webhook_events')
        .select('payload')
        .where('id', '=', `msg_before${child.userId}`)
        .executeTakeFirstOrThrow();
    expect(sealedGeneration((await event(db.withoutPlugins())).payload)).toBeGreaterThan(0);
    // Read through the store (as a delivery is claimed) it is the payload as it was.
    expect((await event(db)).payload).toBe(payload);

    // The index keeps phones unique across sealed and plain rows: an adult cannot take the child's.
    const adult = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(40) });
    await expect(
      db.updateTable('users').set({ phone_index: stored.phone_index }).where('id', '=', adult.userId).execute(),
    ).rejects.toThrow();
  });

  test('the record keys rotate without downtime: new values seal under the new generation, old ones open, all are sealed again', async () => {
    const child = await childWithRecords();
    const { db, keys } = server.app.ctx;
    const before = await loadRecordKeys(db, keys);
    // Another instance that has not heard of the rotation yet.
    const other = recordSealer(db, keys, before);
    // `edupass keys rotate-records`.
    expect(await rotateRecords(db, keys, silent)).toMatch(
      /generation \d+ seals from now on; [1-9]\d* records sealed again/,
    );
    const stored = await storedUser(child.userId);
    expect(sealedGeneration(String(stored.phone))).toBe(before.current + 1);
    // The other instance opens it (it reloads the keys when it meets the new generation).
    expect(await other.open(String(stored.phone))).toBe(child.phone);
    expect((await signIn(server, child.phone)).access.token).toBeTruthy();
  });
});

describe('SEAL_ALL_RECORDS', () => {
  const everyone = useTestServer({ sealAllRecords: true });
  test('seals an adult’s records too; sign-in and the search by a whole phone still find the adult', async () => {
    const adult = await signUp(everyone.server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(40) });
    const stored = await everyone.server.app.ctx.db
      .withoutPlugins()
      .selectFrom('users')
      .select(['phone', 'birth_year_month'])
      .where('id', '=', adult.userId)
      .executeTakeFirstOrThrow();
    expect(sealedGeneration(String(stored.phone))).toBeGreaterThan(0);
    expect(sealedGeneration(String(stored.birth_year_month))).toBeGreaterThan(0);
    expect((await signIn(everyone.server, adult.phone)).access.token).toBeTruthy();
    const token = await eduSteps(everyone.server, everyone.call).operatorToken();
    const page = await everyone.call<{ items: { id: number; phone: string | null }[] }>(
      'GET',
      `${routes.searchUsers.path}?q=${adult.phone}`,
      undefined,
      { token },
    );
    expect(page.body.items.find((user) => user.id === adult.userId)?.phone).toBe(adult.phone);
  });
});

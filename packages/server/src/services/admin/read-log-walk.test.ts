/**
 * Staff reads are logged (issue #31 item 5): every admin and teacher route the server registered —
 * read from Fastify itself, so a route added beside the protocol table is walked too — is called by
 * an operator or a school admin about seeded people (an adult teacher-to-be with a phone and a
 * nickname, and a pupil under 14). Where an answer carries any of their data, the call must have
 * written an access-log row naming the caller and that person; otherwise the walk fails naming the route.
 */
import { routes } from '@edupass/protocol';
import { signInOperator, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { registeredRoutes } from '@edupass/test-kit/fastify-routes';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { findUserByPhone } from '../../store/account/users.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

interface Person {
  id: number;
  /** What of them may not appear in an answer without a log row. */
  marks: string[];
}

let adult: Person;
let minor: Person;
let schoolId: number;
let classId: number;
let operator: { id: number; token: string };
let schoolAdmin: { id: number; token: string };

/** Access-log rows naming the reader and the person. */
const logged = async (readerId: number, subjectId: number) =>
  Number(
    (
      await server.app.ctx.db
        .selectFrom('edu_access_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('reader_id', '=', readerId)
        .where('subject_id', '=', subjectId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const forget = (readerId: number, subjectId: number) =>
  server.app.ctx.db
    .deleteFrom('edu_access_log')
    .where('reader_id', '=', readerId)
    .where('subject_id', '=', subjectId)
    .execute();

/** A route's path with every `:param` filled for the person it is about. */
const filled = (path: string, person: Person) =>
  pathOf(path, {
    id: /\/(admin\/)?users\/:id|guardian\/children\/:id/.test(path)
      ? person.id
      : /schools\/:id/.test(path)
        ? schoolId
        : classId,
    user_id: person.id,
  }).replace(/:[a-z_]+/g, '1');

/** Bodies that let a route act (the rest get `{}`, and answer what they answer). */
const bodyOf = (path: string, person: Person): Record<string, unknown> => {
  if (path.endsWith('/pupils/reset') || path.endsWith('/cards')) return { lang: 'en', user_ids: [person.id] };
  if (path === '/admin/staff-access') return { user_id: person.id, reason: 'route walk' };
  return {};
};

/** The order of the walk: reads first, then changes, deletions last (they end the seeded people). */
const ORDER = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

const walked = () =>
  registeredRoutes(server.app.app)
    .filter((r) => r.path.startsWith('/admin/') || r.path.startsWith('/edu/'))
    .sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));

beforeAll(async () => {
  const signedIn = await signInOperator(server);
  const operatorToken = signedIn.token;
  const row = await findUserByPhone(server.app.ctx.db, signedIn.phone);
  operator = { id: Number(row?.id), token: operatorToken };
  const admin = await signUp(server);
  schoolAdmin = { id: admin.userId, token: admin.token };
  schoolId = edu.ok<{ id: number }>(
    await call(
      'POST',
      routes.addSchool.path,
      { name: '读取小学', admin_user_id: admin.userId },
      { token: operatorToken },
    ),
  ).id;
  classId = await edu.createClass(admin, schoolId, '四年级一班');
  const [pupil] = await edu.createPupils(admin, classId, ['林小读']);
  if (!pupil) throw new Error('no pupil');
  minor = { id: pupil.user_id, marks: ['林小读', pupil.username] };
  const person = await signUp(server);
  edu.ok(await call('PATCH', routes.updateProfile.path, { nickname: '路过老师' }, { token: person.token }), 204);
  edu.ok(await call('POST', pathOf(routes.requestTeaching.path, { id: schoolId }), {}, { token: person.token }), 204);
  adult = { id: person.userId, marks: [person.phone, '路过老师'] };
});

describe('every admin and teacher route writes the access log when it answers a person’s data', () => {
  test('Fastify lists every admin and education route of the protocol table, and more than a few', () => {
    const listed = new Set(walked().map((r) => `${r.method} ${r.path}`));
    const table = Object.values(routes).filter((spec) => /^\/(admin|edu)\//.test(spec.path));
    for (const spec of table) expect(listed, spec.path).toContain(`${spec.method} ${spec.path}`);
    expect(listed.size).toBeGreaterThanOrEqual(table.length);
  });

  test('no route answers a seeded person’s data without a log row naming the caller and that person', async () => {
    const unlogged: string[] = [];
    const showed: string[] = [];
    for (const route of walked()) {
      const caller = route.path.startsWith('/admin/') ? operator : schoolAdmin;
      for (const person of [adult, minor]) {
        // The log keeps one row per reader, person, purpose and day: an earlier route's row of the same
        // read would stand for this one, so the caller's rows about the person go first.
        await forget(caller.id, person.id);
        const path = filled(route.path, person);
        // A reason goes with every read: a minor's record opens with one (approvals are off on this server).
        const url = route.method === 'GET' ? `${path}${path.includes('?') ? '&' : '?'}reason=route%20walk` : path;
        const answer = await call(route.method, url, route.method === 'GET' ? undefined : bodyOf(route.path, person), {
          token: caller.token,
        });
        const text = JSON.stringify(answer.body ?? '');
        if (!person.marks.some((mark) => text.includes(mark))) continue;
        showed.push(`${route.method} ${route.path}`);
        if ((await logged(caller.id, person.id)) === 0) unlogged.push(`${route.method} ${route.path} (${person.id})`);
      }
    }
    expect(unlogged).toEqual([]);
    // The walk is not empty: the user page, the search, the teacher list, the school and class views show them.
    for (const expected of [
      'GET /admin/users/:id',
      'GET /admin/users',
      'GET /admin/edu/teacher-requests',
      'GET /edu/schools/:id',
      'GET /edu/classes/:id',
    ]) {
      expect(showed, expected).toContain(expected);
    }
    // About 150 requests one after another: seconds alone, far longer on a loaded machine.
  }, 180_000);
});

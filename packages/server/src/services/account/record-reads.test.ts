import { type EduAccessLog, routes } from '@edupass/protocol';
import { signInOperator, signUp } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

/**
 * An operator opens the person's page: one read of their record in the access log. Another operator
 * each time, as the log keeps one row per reader, record, purpose and day.
 */
const operatorReads = async (userId: number) => {
  const { token } = await signInOperator(server);
  edu.ok(await call('GET', pathOf(routes.getUser.path, { id: userId }), undefined, { token }));
};

describe('"who read my record", a page at a time', () => {
  test('pages walk every read once, newest first, while new reads arrive between pages', async () => {
    const person = await signUp(server);
    for (let i = 0; i < 7; i++) await operatorReads(person.userId);
    const own = async (query: string) =>
      edu.ok<EduAccessLog>(
        await call('GET', `${routes.eduAccessLog.path}${query}`, undefined, { token: person.token }),
      );
    const whole = await own('');
    expect(whole.reads).toHaveLength(7);
    expect(whole.next_cursor).toBeUndefined();
    const times = whole.reads.map((r) => r.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const walked: EduAccessLog['reads'] = [];
    let cursor: number | undefined;
    let pages = 0;
    do {
      const page = await own(`?limit=3${cursor === undefined ? '' : `&cursor=${cursor}`}`);
      pages++;
      // Only the first page carries the applications and the copies made.
      if (cursor !== undefined) expect([page.applications, page.exports]).toEqual([[], []]);
      walked.push(...page.reads);
      cursor = page.next_cursor;
      await operatorReads(person.userId);
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(walked).toEqual(whole.reads);
    // The reads made while paging are there, newest first, on a fresh first page.
    expect((await own('')).reads).toHaveLength(7 + pages);
  });

  test("a cursor of another person's log gives nothing of theirs", async () => {
    const [one, other] = [await signUp(server), await signUp(server)];
    for (let i = 0; i < 2; i++) await operatorReads(one.userId);
    await operatorReads(other.userId);
    const ones = edu.ok<EduAccessLog>(
      await call('GET', `${routes.eduAccessLog.path}?limit=1`, undefined, { token: one.token }),
    );
    expect(ones.next_cursor).toBeDefined();
    const page = edu.ok<EduAccessLog>(
      await call('GET', `${routes.eduAccessLog.path}?cursor=${ones.next_cursor}`, undefined, { token: other.token }),
    );
    expect(page.reads).toEqual([]);
  });
});

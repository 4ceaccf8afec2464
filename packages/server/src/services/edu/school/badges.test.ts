/**
 * Badge sign-in counts wrong badges per address once they are known to be wrong: past the limit the
 * address's wrong badges are answered `E_5` (with the seconds left), and a live badge is never refused
 * — not when a whole school signs in at once behind one address, not after that address tried wrong
 * ones. On SQLite and PostgreSQL (the counters live in the database).
 */
import { routes } from '@edupass/protocol';
import { expectError, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { expect, test } from 'vitest';
import { BADGE_FAILURES_PER_HOUR } from './badges.ts';

// A server of its own: the limit it reaches holds for every test from this address.
const { server, call } = useTestServer({ trustProxy: 1 });
const edu = eduSteps(server, call);

const signInByBadge = (badge: string, from?: string) =>
  call<{ retry_after?: number }>(
    'POST',
    routes.signInByBadge.path,
    { badge },
    { headers: { ...TOKEN_SET_HEADERS, ...(from ? { 'x-forwarded-for': from } : {}) } },
  );

/** A class of `count` pupils with printed cards: their badges. */
const classBadges = async (count: number) => {
  const schoolId = await edu.addSchool();
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  const names = Array.from({ length: count }, (_, i) => `${CHINESE_NAMES[i % CHINESE_NAMES.length]}${i}`);
  await edu.createPupils(teacher, classId, names);
  return decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html).map(badgeOf);
};

test('wrong badges from one address are refused past the hourly limit; live ones are never refused', async () => {
  const from = '198.51.100.5';
  const [badge] = (await classBadges(2)) as [string];

  // More live sign-ins than the limit: none of them counts.
  for (let i = 0; i < BADGE_FAILURES_PER_HOUR + 5; i++) edu.ok(await signInByBadge(badge, from));
  for (let i = 0; i < BADGE_FAILURES_PER_HOUR; i++) expectError(await signInByBadge(`made-up-${i}`, from), 'AC3_2');

  const refused = await signInByBadge('made-up-once-more', from);
  expectError(refused, 'E_5');
  expect(refused.body.retry_after).toBeGreaterThan(0);
  expect(refused.body.retry_after).toBeLessThanOrEqual(3600);
  // The address's wrong tries stop at the wrong tries: the pupil's card still opens the account.
  edu.ok(await signInByBadge(badge, from));
});

test('a school signing in at once behind one address: 64 pupils, 300 tries, every live card signs in', async () => {
  const from = '198.51.100.64';
  const badges = await classBadges(64);
  expect(badges).toHaveLength(64);
  // 300 tries at once (each pupil's tablet retrying, some twice), more than the address's limit.
  const tries = Array.from({ length: 300 }, (_, i) => badges[i % badges.length] as string);
  const answers = await Promise.all(tries.map((badge) => signInByBadge(badge, from)));
  expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
  // Then wrong badges from that address are refused past the limit, and live ones still sign in.
  const wrong = await Promise.all(
    Array.from({ length: BADGE_FAILURES_PER_HOUR + 1 }, (_, i) => signInByBadge(`wrong-${i}`, from)),
  );
  expect(wrong.map((a) => (a.body as { error_code?: string }).error_code)).toContain('E_5');
  const again = await Promise.all(badges.slice(0, 8).map((badge) => signInByBadge(badge, from)));
  expect(again.map((a) => a.status)).toEqual(again.map(() => 200));
}, 120_000);

test('wrong badges sent all at once from one address: exactly the limit are told AC3_2, the rest E_5', async () => {
  const from = '198.51.100.23';
  const answers = await Promise.all(
    Array.from({ length: 2 * BADGE_FAILURES_PER_HOUR }, (_, i) => signInByBadge(`burst-${i}`, from)),
  );
  const codes = answers.map((a) => (a.body as { error_code?: string }).error_code);
  expect(codes.filter((c) => c === 'AC3_2')).toHaveLength(BADGE_FAILURES_PER_HOUR);
  expect(codes.filter((c) => c === 'E_5')).toHaveLength(BADGE_FAILURES_PER_HOUR);
});

/**
 * Badge sign-in refuses an address that tried too many wrong badges: failures only are counted (a
 * school's tablets behind one address sign in every pupil by card), and once past the limit even a
 * live badge from that address waits (`E_5` with the seconds left).
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

test('wrong badges from one address are refused past the hourly limit; live ones before it never count', async () => {
  const schoolId = await edu.addSchool();
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  await edu.createPupils(teacher, classId, CHINESE_NAMES.slice(0, 2));
  const badge = badgeOf(decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html)[0] as string);

  // More live sign-ins than the limit: none of them counts.
  for (let i = 0; i < BADGE_FAILURES_PER_HOUR + 5; i++) edu.ok(await signInByBadge(badge));
  for (let i = 0; i < BADGE_FAILURES_PER_HOUR; i++) expectError(await signInByBadge(`made-up-${i}`), 'AC3_2');

  const refused = await signInByBadge(badge);
  expectError(refused, 'E_5');
  expect(refused.body.retry_after).toBeGreaterThan(0);
  expect(refused.body.retry_after).toBeLessThanOrEqual(3600);
});

test('wrong badges sent all at once from one address: exactly the limit is looked up, the rest wait', async () => {
  const from = '198.51.100.23';
  const answers = await Promise.all(
    Array.from({ length: 2 * BADGE_FAILURES_PER_HOUR }, (_, i) => signInByBadge(`burst-${i}`, from)),
  );
  const codes = answers.map((a) => (a.body as { error_code?: string }).error_code);
  expect(codes.filter((c) => c === 'AC3_2')).toHaveLength(BADGE_FAILURES_PER_HOUR);
  expect(codes.filter((c) => c === 'E_5')).toHaveLength(BADGE_FAILURES_PER_HOUR);
});

/**
 * A login card ends when the pupil takes the account: the pupil's own password change (the first,
 * forced one, and any later one) revokes the school's badges for that pupil, unless the school's admin
 * chose "cards keep working". The pupil lists their live cards and revokes one; nobody else can.
 */
import { type AuditEntry, type EduMemberships, type OwnCards, routes, type SchoolOverview } from '@edupass/protocol';
import { expectError, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const signInByPassword = async (identity: string, password: string) =>
  edu.ok<{ auth: { token: { access: { token: string } } } }>(
    await call('POST', routes.loginByPassword.path, { identity, password, pid: PID }, { headers: TOKEN_SET_HEADERS }),
  ).auth.token.access.token;
const signInByBadge = (badge: string) =>
  call<{ user_info: { id: number } }>('POST', routes.signInByBadge.path, { badge }, { headers: TOKEN_SET_HEADERS });
const changePassword = async (token: string, old: string, password: string) =>
  edu.ok(
    await call(
      'PATCH',
      routes.changePasswordKeepingSession.path,
      { old_password: old, password, confirm_password: password, end_other_sessions: false },
      { token },
    ),
    204,
  );

const listCards = (token: string) => call<OwnCards>('GET', routes.listOwnCards.path, undefined, { token });
const revokeCard = (token: string, id: string) =>
  call('DELETE', pathOf(routes.revokeOwnCard.path, { id: 0 }).replace('0', encodeURIComponent(id)), undefined, {
    token,
  });
const setKeepWorking = (token: string, schoolId: number, keep: boolean) =>
  call('PATCH', pathOf(routes.updateSchool.path, { id: schoolId }), { cards_keep_working: keep }, { token });

/** A school with its admin, a teacher, a class and one pupil with a printed card. */
const pupilWithCard = async () => {
  const admin = await signUp(server);
  const schoolId = edu.ok<{ id: number }>(
    await call(
      'POST',
      routes.addSchool.path,
      { name: '启明小学', admin_user_id: admin.userId },
      { token: await edu.operatorToken() },
    ),
  ).id;
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId, '二年级三班');
  const [pupil] = await edu.createPupils(teacher, classId, ['陈小雨']);
  if (!pupil) throw new Error('no pupil');
  const card = async () => badgeOf(decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'zh-CN')).html)[0] ?? '');
  const sheet = async () => (await edu.cardSheet(teacher, classId, 'en')).html;
  return { admin, schoolId, teacher, classId, pupil, badge: await card(), card, sheet };
};

describe('the card ends when the pupil takes the account', () => {
  test('the forced first change and a later own change each end the cards printed before', async () => {
    const { pupil, badge, card } = await pupilWithCard();
    edu.ok(await signInByBadge(badge));
    const token = await signInByPassword(pupil.username, pupil.password);
    const before = edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token }));
    expect(before.must_change_password).toBe(true);

    await changePassword(token, pupil.password, 'Lantern5821');
    expectError(await signInByBadge(badge), 'AC3_2');

    // The teacher prints a new card; the pupil changes the password again (through the older route,
    // which signs every device out): that card ends too.
    const second = await card();
    edu.ok(await signInByBadge(second));
    edu.ok(
      await call(
        'PATCH',
        routes.changePassword.path,
        { old_password: 'Lantern5821', password: 'Harbour7304', confirm_password: 'Harbour7304' },
        { token },
      ),
      204,
    );
    expectError(await signInByBadge(second), 'AC3_2');
    // The password still signs in.
    expect(await signInByPassword(pupil.username, 'Harbour7304')).toBeTruthy();
  });

  test('a school whose admin chose "cards keep working": the card still signs in after the pupil’s password', async () => {
    const { admin, teacher, schoolId, pupil, sheet } = await pupilWithCard();
    // The printed card says what the pupil's own password does to it.
    expect(await sheet()).toContain('The QR code stops working once the pupil chooses their own password.');
    // Only the school's admin decides; a teacher of the school is refused as if there were no school.
    expectError(await setKeepWorking(teacher.token, schoolId, true), 'E_2');
    edu.ok(await setKeepWorking(admin.token, schoolId, true), 204);
    const overview = edu.ok<SchoolOverview>(
      await call('GET', pathOf(routes.schoolOverview.path, { id: schoolId }), undefined, { token: admin.token }),
    );
    expect(overview.cards_keep_working).toBe(true);
    const audit = edu.ok<AuditEntry[]>(
      await call('GET', `${routes.listAudit.path}?limit=500`, undefined, { token: await edu.auditorToken() }),
    );
    expect(audit.filter((e) => e.action === 'school.cards.set' && e.target === `school:${schoolId}`)).toEqual([
      expect.objectContaining({ operator_id: admin.userId, detail: 'cards keep working' }),
    ]);
    const kept = await sheet();
    expect(kept).toContain('The QR code still works after the pupil chooses a password');
    const badge = badgeOf(decodeCardQrCodes(kept)[0] ?? '');

    const token = await signInByPassword(pupil.username, pupil.password);
    await changePassword(token, pupil.password, 'Lantern5821');
    expect(edu.ok<OwnCards>(await listCards(token)).cards_keep_working).toBe(true);
    expect(edu.ok<{ user_info: { id: number } }>(await signInByBadge(badge)).user_info.id).toBe(pupil.user_id);

    // Back to the default: the next change ends the card.
    edu.ok(await setKeepWorking(admin.token, schoolId, false), 204);
    await changePassword(token, 'Lantern5821', 'Harbour7304');
    expectError(await signInByBadge(badge), 'AC3_2');
  });
});

describe("the pupil's cards in the account centre", () => {
  test('the pupil lists the live card (printed when, for which class) and ends it; nobody else can; twice is done', async () => {
    const { pupil, teacher, card } = await pupilWithCard();
    const token = await signInByPassword(pupil.username, pupil.password);
    // On the card's password the list is read (the password form says what the change does to the
    // card) but nothing is done with it (E_17); the change ends the card, and the teacher prints the
    // class's cards again.
    const before = edu.ok<OwnCards>(await listCards(token)).cards;
    expect(before).toHaveLength(1);
    expectError(await revokeCard(token, before[0]?.id ?? ''), 'E_17');
    await changePassword(token, pupil.password, 'Lantern5821');
    const badge = await card();
    const listed = edu.ok<OwnCards>(await listCards(token));
    expect(listed.cards_keep_working).toBe(false);
    expect(listed.cards).toEqual([
      { id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), printed_at: expect.any(Number), class_name: '二年级三班' },
    ]);
    expect(Date.now() - (listed.cards[0]?.printed_at ?? 0)).toBeLessThan(60_000);
    expect(JSON.stringify(listed)).not.toContain(badge);
    const id = listed.cards[0]?.id ?? '';

    // Another user (a signed-up stranger, even the pupil's teacher) cannot end it: not found.
    const stranger = await signUp(server);
    expectError(await revokeCard(stranger.token, id), 'E_2');
    expectError(await revokeCard(teacher.token, id), 'E_2');
    expect(edu.ok<OwnCards>(await listCards(teacher.token)).cards).toEqual([]);
    expectError(await revokeCard(token, 'ffffffffffffffff'), 'E_2');
    expect(
      (await call('DELETE', pathOf(routes.revokeOwnCard.path, { id: 0 }).replace('/0', '/'), undefined, { token }))
        .status,
    ).toBe(404);
    edu.ok(await signInByBadge(badge));

    // The pupil ends it: at once, and asking again (or at the same time) is done, not an error.
    const answers = await Promise.all([revokeCard(token, id), revokeCard(token, id)]);
    for (const answer of answers) expect(answer.status).toBe(204);
    edu.ok(await revokeCard(token, id), 204);
    expectError(await signInByBadge(badge), 'AC3_2');
    expect(edu.ok<OwnCards>(await listCards(token)).cards).toEqual([]);

    // A new card from the teacher is listed; signed out, the list is refused.
    const second = await card();
    edu.ok(await signInByBadge(second));
    expect(edu.ok<OwnCards>(await listCards(token)).cards).toHaveLength(1);
    expectError(await call('GET', routes.listOwnCards.path), 'E_0');
  });
});

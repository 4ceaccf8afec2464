/**
 * Guardians linked to children over HTTP against the real server: one-time codes from the child and
 * from a pupil's teacher (single use, lapsing, typed loosely, guesses locked atomically), several
 * guardians per child and children per guardian, the guardian's view of a child (logged in the child's
 * access log), signing a child's device out, and unlinking.
 */
import {
  type ChildRecord,
  type ConsentRequest,
  type EduAccessLog,
  type GuardianChildren,
  type GuardianCode,
  type GuardianRequests,
  type LinkedChild,
  type OwnGuardians,
  routes,
} from '@edupass/protocol';
import { type Account, bindNewPhone, expectError, PID, signIn, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { bornYearsAgo, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { movableClock } from '@edupass/test-kit/server-clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);
const { signUpAged } = edu;
const DAY = 24 * 3_600_000;

const openCode = async (child: Account) =>
  edu.ok<GuardianCode>(await call('POST', routes.openGuardianCode.path, {}, { token: child.token })).code;
const link = (guardian: Account, code: string, relation = 'mother') =>
  call<{ child_id: number }>('POST', routes.linkChild.path, { code, relation }, { token: guardian.token });
const childrenOf = async (guardian: Account) =>
  edu.ok<GuardianChildren>(await call('GET', routes.guardianChildren.path, undefined, { token: guardian.token }))
    .children;
const guardiansOf = async (child: Account) =>
  edu.ok<OwnGuardians>(await call('GET', routes.ownGuardians.path, undefined, { token: child.token })).guardians;
const recordOf = (guardian: Account, childId: number) =>
  call<ChildRecord>('GET', pathOf(routes.childRecord.path, { id: childId }), undefined, { token: guardian.token });

const moveClock = movableClock(server);

/** A later guardian's link is a request the first guardian approves (guardian-requests.test.ts). */
const linkApproved = async (first: Account, later: Account, code: string, relation: string) => {
  expect(edu.ok<LinkedChild>(await link(later, code, relation)).state).toBe('pending');
  const { to_decide } = edu.ok<GuardianRequests>(
    await call('GET', routes.guardianRequests.path, undefined, { token: first.token }),
  );
  const request = to_decide.find((r) => r.phone.endsWith(later.phone.slice(-4)));
  edu.ok(
    await call(
      'POST',
      pathOf(routes.approveGuardianRequest.path, { id: Number(request?.id) }),
      {},
      {
        token: first.token,
      },
    ),
    204,
  );
};

describe('linking a guardian with a one-time code', () => {
  it('links two guardians to a child and one guardian to two children, each relation recorded', async () => {
    const [child, sibling] = [await signUpAged(10), await signUpAged(15)];
    const [mother, father] = [await signUpAged(38), await signUpAged(40)];
    const code = await openCode(child);
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    // As a parent types it from a message: lower case, spaces inside.
    const typed = ` ${code.slice(0, 4).toLowerCase()} ${code.slice(4)} `;
    expect(edu.ok<{ child_id: number }>(await link(mother, typed, 'mother'))).toEqual({
      child_id: child.userId,
      state: 'linked',
      opens_at: null,
    });
    await linkApproved(mother, father, await openCode(child), 'father');
    edu.ok(await link(mother, await openCode(sibling), 'mother'));

    expect((await guardiansOf(child)).map((g) => [g.id, g.relation])).toEqual([
      [mother.userId, 'mother'],
      [father.userId, 'father'],
    ]);
    expect((await childrenOf(mother)).map((c) => c.id)).toEqual([child.userId, sibling.userId]);
    expect((await childrenOf(father)).map((c) => c.id)).toEqual([child.userId]);
  });

  it('a code works once, lapses after a week, and is stored only as its hash', async () => {
    const child = await signUpAged(9);
    const code = await openCode(child);
    const stored = await server.app.ctx.db
      .selectFrom('tickets')
      .selectAll()
      .where('kind', '=', 'guardian_link')
      .execute();
    expect(JSON.stringify(stored)).not.toContain(code);

    const [first, second] = [await signUpAged(35), await signUpAged(36)];
    const raced = await Promise.all([link(first, code), link(second, code, 'father')]);
    expect(raced.map((a) => a.status).sort()).toEqual([200, 404]);
    expect(await guardiansOf(child)).toHaveLength(1);

    const lapsing = await openCode(child);
    moveClock(7 * DAY + 60_000);
    const later = { token: (await signIn(server, second.phone)).access.token } as Account;
    expectError(await link(later, lapsing), 'E_2');
  });

  it('only an adult with a phone of their own links, with a relation from the list; a refusal keeps the code', async () => {
    const child = await signUpAged(12);
    const code = await openCode(child);
    expectError(await link(child, code), 'E_1');
    expectError(await link(await signUpAged(16), code), 'E_1');
    const guardian = await signUpAged(41);
    expectError(await link(guardian, code, 'neighbour'), 'E_1');
    edu.ok(await link(guardian, code, 'grandparent'));
    // An adult has no guardian code to open.
    expectError(await call('POST', routes.openGuardianCode.path, {}, { token: guardian.token }), 'E_1');
  });

  it('a flood of guesses is refused with E_5 past the limit, the right code too; another guardian still links', async () => {
    const child = await signUpAged(11);
    const code = await openCode(child);
    const prober = await signUpAged(30);
    const limit = server.config.loginLockAfter;
    const burst = await Promise.all(Array.from({ length: limit + 4 }, (_, i) => link(prober, `WRONG${i}XY`)));
    const codes = burst.map((answer) => (answer.body as { error_code?: string }).error_code);
    expect(codes.filter((c) => c === 'E_2')).toHaveLength(limit);
    expect(codes.filter((c) => c === 'E_5')).toHaveLength(4);
    expectError(await link(prober, code), 'E_5');
    expect(await guardiansOf(child)).toEqual([]);
    edu.ok(await link(await signUpAged(33), code));
  });

  /** A pupil a teacher made in a new school, and the address where the teacher opens the pupil's guardian code. */
  const pupilOfNewSchool = async (school: string, className: string, name: string) => {
    const schoolId = await edu.addSchool(school);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, className);
    const [pupil] = await edu.createPupils(teacher, classId, [name]);
    const path = pathOf(routes.pupilGuardianCode.path, { id: classId, user_id: Number(pupil?.user_id) });
    return { teacher, pupil, path };
  };

  it("a pupil's teacher opens a code for the pupil's guardian; a teacher of another school cannot", async () => {
    const { teacher, pupil, path } = await pupilOfNewSchool('链接小学', '二年级一班', '周小舟');
    const stranger = await edu.approvedTeacher(await edu.addSchool('别的小学'));
    expectError(await call('POST', path, {}, { token: stranger.token }), 'E_2');
    const { code, expires_at } = edu.ok<GuardianCode>(await call('POST', path, {}, { token: teacher.token }));
    expect(expires_at).toBeGreaterThan(Date.now() + 29 * DAY);
    const guardian = await signUpAged(37);
    expect(edu.ok<{ child_id: number }>(await link(guardian, code, 'father')).child_id).toBe(pupil?.user_id);
    // The guardian sees the child by the name the teacher typed, not the drawn 用户NNNNNNNN.
    expect(await childrenOf(guardian)).toEqual([
      expect.objectContaining({
        id: pupil?.user_id,
        relation: 'father',
        consent_state: 'school',
        pupil_name: '周小舟',
      }),
    ]);
    const record = edu.ok<ChildRecord>(await recordOf(guardian, Number(pupil?.user_id)));
    expect(record.child).toMatchObject({ pupil_name: '周小舟' });
  });

  it('a guardian linked by the card’s code agrees from the guardian area: the consent page knows the child and the relation; no one else opens it', async () => {
    // A school without an agreement: the pupil waits for a guardian.
    const schoolId = await edu.addSchool('等待小学', undefined, false);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['宋小满']);
    const childId = Number(pupil?.user_id);
    const path = pathOf(routes.pupilGuardianCode.path, { id: classId, user_id: childId });
    const { code } = edu.ok<GuardianCode>(await call('POST', path, {}, { token: teacher.token }));
    const mother = await signUpAged(36);
    edu.ok(await link(mother, code, 'mother'));
    const opening = pathOf(routes.openChildConsentLink.path, { id: childId });
    // Someone not linked, and the teacher, are refused the link.
    for (const other of [await signUpAged(40), teacher]) {
      expectError(await call('POST', opening, {}, { token: other.token }), 'E_2');
    }
    const { link: consentLink } = edu.ok<{ link: string }>(await call('POST', opening, {}, { token: mother.token }));
    const asked = edu.ok<ConsentRequest>(
      await call('POST', routes.consentRequest.path, { link: consentLink }, { token: mother.token }),
    );
    expect(asked).toMatchObject({ child: { nickname: '宋小满' }, relation: 'mother' });
    edu.ok(
      await call(
        'POST',
        routes.decideConsent.path,
        { link: consentLink, decision: 'consent', relation: 'mother' },
        { token: mother.token },
      ),
      204,
    );
    expect(await childrenOf(mother)).toEqual([expect.objectContaining({ id: childId, consent_state: 'granted' })]);
    // Nothing waits any more: no second link.
    expectError(await call('POST', opening, {}, { token: mother.token }), 'E_1');
  });

  it("a teacher's code is for someone else: the teacher who opened it cannot spend it, and the pupil's guardian still can", async () => {
    const { teacher, pupil, path } = await pupilOfNewSchool('代码小学', '四年级一班', '林小溪');
    const { code } = edu.ok<GuardianCode>(await call('POST', path, {}, { token: teacher.token }));
    expectError(await link(teacher, code), 'E_1');
    expect(await childrenOf(teacher)).toEqual([]);
    expect(edu.ok<{ child_id: number }>(await link(await signUpAged(41), code)).child_id).toBe(pupil?.user_id);
  });

  it("no teacher opens a guardian code for a class member's own account, and no code links an adult as a child", async () => {
    const schoolId = await edu.addSchool('成人小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '夜校一班');
    const member = await signUpAged(30);
    const joinCode = edu.ok<{ join_code: string }>(
      await call('POST', pathOf(routes.openJoinCode.path, { id: classId }), {}, { token: teacher.token }),
    ).join_code;
    edu.ok(await call('POST', routes.joinClass.path, { join_code: joinCode }, { token: member.token }), 204);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.approveJoin.path, { id: classId, user_id: member.userId }),
        {},
        {
          token: teacher.token,
        },
      ),
      204,
    );
    const path = pathOf(routes.pupilGuardianCode.path, { id: classId, user_id: member.userId });
    expectError(await call('POST', path, {}, { token: teacher.token }), 'E_2');

    // A code for an account that is (now) an adult's links no one.
    const grown = await signUpAged(17);
    const code = await openCode(grown);
    await server.app.ctx.db
      .updateTable('users')
      .set({ birth_year_month: bornYearsAgo(18), age_band: 'adult' })
      .where('id', '=', grown.userId)
      .execute();
    const guardian = await signUpAged(45);
    expectError(await link(guardian, code), 'E_1');
    expect(await childrenOf(guardian)).toEqual([]);
  });

  it("a pupil's login card carries a guardian link code; a reprint replaces it", async () => {
    const schoolId = await edu.addSchool('卡片小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '一年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['陈小河']);
    const codeOnCard = async (lang: 'zh-CN' | 'en') => {
      const { html } = await edu.cardSheet(teacher, classId, lang);
      expect(html).toContain(lang === 'en' ? 'Guardian link code' : '家长关联码');
      return /class="guardian-code">([A-Z0-9]{8})</.exec(html)?.[1] ?? '';
    };
    const lost = await codeOnCard('zh-CN');
    const printed = await codeOnCard('en');
    expect(printed).not.toBe(lost);
    const guardian = await signUpAged(40);
    expectError(await link(guardian, lost), 'E_2');
    expect(edu.ok<{ child_id: number }>(await link(guardian, printed)).child_id).toBe(pupil?.user_id);
  });
});

describe("a pupil's guardian codes, where the school can sign in as the pupil", () => {
  // Where the school does not ask pupils to choose their own password (EDU_PUPIL_PASSWORD_CHANGE=0),
  // the card's password and badge stay the school's way in: what a teacher signed in as the pupil can do.
  const config = () => server.app.ctx.config as { eduPupilPasswordChange: boolean };
  beforeAll(() => {
    config().eduPupilPasswordChange = false;
  });
  afterAll(() => {
    config().eduPupilPasswordChange = true;
  });
  /** A pupil with a printed card: the badge signs in as the pupil, the card carries a guardian code. */
  const cardedPupil = async (school: string) => {
    const schoolId = await edu.addSchool(school);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级二班');
    const [pupil] = await edu.createPupils(teacher, classId, ['王小明']);
    const { html } = await edu.cardSheet(teacher, classId, 'zh-CN');
    const badge = badgeOf(decodeCardQrCodes(html)[0] as string);
    const cardCode = /class="guardian-code">([A-Z0-9]{8})</.exec(html)?.[1] ?? '';
    return { teacher, classId, userId: Number(pupil?.user_id), badge, cardCode };
  };
  const signInAsPupil = async (badge: string) => {
    const answer = await call('POST', routes.signInByBadge.path, { badge }, { headers: TOKEN_SET_HEADERS });
    return {
      token: edu.ok<{ auth: { token: { access: { token: string } } } }>(answer).auth.token.access.token,
    } as Account;
  };

  it('a teacher signed in as the pupil opens a code and cannot spend it as guardian; a parent then can', async () => {
    const { teacher, userId, badge } = await cardedPupil('守护小学');
    const code = await openCode(await signInAsPupil(badge));
    const refused = await link(teacher, code);
    expectError(refused, 'E_1');
    expect(JSON.stringify(refused.body)).toContain("Staff of the child's school cannot become the child's guardian");
    expect(await childrenOf(teacher)).toEqual([]);
    // The refusal left the code for the family.
    expect(edu.ok<{ child_id: number }>(await link(await signUpAged(39), code)).child_id).toBe(userId);
  });

  it("a reset makes every open code useless, the lost card's and one opened as the pupil", async () => {
    const { teacher, classId, userId, badge, cardCode } = await cardedPupil('重置小学');
    const openedAsPupil = await openCode(await signInAsPupil(badge));
    edu.ok(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classId }),
        { user_ids: [userId] },
        { token: teacher.token },
      ),
    );
    const finder = await signUpAged(35);
    expectError(await link(finder, cardCode), 'E_2');
    expectError(await link(finder, openedAsPupil), 'E_2');
    expect(await childrenOf(finder)).toEqual([]);
  });

  it("once the pupil binds a phone of their own, the codes opened before link no one; the pupil's new one does", async () => {
    const { badge, cardCode, userId } = await cardedPupil('自主小学');
    const pupil = await signInAsPupil(badge);
    const openedBefore = await openCode(pupil);
    await bindNewPhone(server, pupil.token);
    const stranger = await signUpAged(44);
    expectError(await link(stranger, cardCode), 'E_2');
    expectError(await link(stranger, openedBefore), 'E_2');
    const parent = await signUpAged(42);
    expect(edu.ok<{ child_id: number }>(await link(parent, await openCode(pupil))).child_id).toBe(userId);
  });
});

describe("a linked guardian's view of a child", () => {
  it('shows the record, consent, guardians, devices and minor mode, and the read is in the child’s access log', async () => {
    const child = await signUpAged(10);
    const guardian = await signUpAged(39);
    edu.ok(await link(guardian, await openCode(child), 'father'));
    expectError(await recordOf(await signUpAged(44), child.userId), 'E_2');

    const record = edu.ok<ChildRecord>(await recordOf(guardian, child.userId));
    expect(record.child).toMatchObject({
      id: child.userId,
      age_band: '8_13',
      consent_state: 'pending',
      relation: 'father',
    });
    expect(record.guardians.map((g) => g.id)).toEqual([guardian.userId]);
    expect(record.devices.length).toBeGreaterThan(0);
    expect(record.minor).toMatchObject({ minor_mode: true, daily_limit_minutes: 60, guardian_linked: true });
    expect(record.defaults).toEqual({ daily_limit_minutes: 60, curfew: '22:00-06:00' });

    const log = edu.ok<EduAccessLog>(await call('GET', routes.eduAccessLog.path, undefined, { token: child.token }));
    expect(log.reads).toContainEqual(
      expect.objectContaining({
        reader_id: guardian.userId,
        // The child's page names the reader by what they are to the child, not only by a drawn nickname.
        reader_relation: 'father',
        purpose: 'guardian_view',
        fields: expect.arrayContaining(['devices']),
      }),
    );
  });

  it("signs one of the child's devices out at once; another adult cannot", async () => {
    const child = await signUpAged(13);
    const guardian = await signUpAged(42);
    edu.ok(await link(guardian, await openCode(child)));
    const [device] = edu.ok<ChildRecord>(await recordOf(guardian, child.userId)).devices;
    const end = (who: Account) =>
      call(
        'POST',
        pathOf(routes.endChildDevice.path.replace(':key', encodeURIComponent(String(device?.id))), {
          id: child.userId,
        }),
        {},
        { token: who.token },
      );
    expectError(await end(await signUpAged(50)), 'E_2');
    edu.ok(await call('GET', routes.ownGuardians.path, undefined, { token: child.token }));
    edu.ok(await end(guardian), 204);
    expectError(await call('GET', routes.ownGuardians.path, undefined, { token: child.token }), 'E_0');
  });

  it('unlinking ends the view; the other guardian stays linked', async () => {
    const child = await signUpAged(9);
    const [mother, father] = [await signUpAged(34), await signUpAged(36)];
    edu.ok(await link(mother, await openCode(child), 'mother'));
    await linkApproved(mother, father, await openCode(child), 'father');
    const unlink = (who: Account) =>
      call('POST', pathOf(routes.unlinkChild.path, { id: child.userId }), {}, { token: who.token });
    edu.ok(await unlink(mother), 204);
    expectError(await recordOf(mother, child.userId), 'E_2');
    expectError(await unlink(mother), 'E_2');
    expect((await guardiansOf(child)).map((g) => g.id)).toEqual([father.userId]);
    edu.ok(await recordOf(father, child.userId));
  });

  it("a linked guardian deletes the child's account: frozen at once, erased after the grace period", async () => {
    const child = await signUpAged(12);
    const guardian = await signUpAged(43);
    edu.ok(await link(guardian, await openCode(child)));
    const remove = (who: Account) =>
      call('POST', pathOf(routes.deleteChildAccount.path, { id: child.userId }), {}, { token: who.token });
    expectError(await remove(await signUpAged(47)), 'E_2');
    expect(await guardiansOf(child)).toHaveLength(1);
    const config = server.app.ctx.config as { accountDeletionGraceDays: number };
    const grace = config.accountDeletionGraceDays;
    config.accountDeletionGraceDays = 15;
    try {
      edu.ok(await remove(guardian), 204);
    } finally {
      config.accountDeletionGraceDays = grace;
    }
    expectError(await call('GET', routes.ownGuardians.path, undefined, { token: child.token }), 'E_0');
    const row = await server.app.ctx.db
      .selectFrom('users')
      .select(['erase_at', 'erase_requested_by'])
      .where('id', '=', child.userId)
      .executeTakeFirst();
    expect(row?.erase_requested_by).toBe('guardian_request');
    expect(Number(row?.erase_at)).toBeGreaterThan(Date.now() + 14 * DAY);
  });

  it('only a guardian stops the deletion they asked for: signing in as the child offers no way to keep it', async () => {
    const child = await signUpAged(11);
    const [guardian, other] = [await signUpAged(39), await signUpAged(41)];
    edu.ok(await link(guardian, await openCode(child)));
    const params = { id: child.userId };
    const config = server.app.ctx.config as { accountDeletionGraceDays: number };
    const grace = config.accountDeletionGraceDays;
    config.accountDeletionGraceDays = 15;
    try {
      edu.ok(await call('POST', pathOf(routes.deleteChildAccount.path, params), {}, { token: guardian.token }), 204);
    } finally {
      config.accountDeletionGraceDays = grace;
    }
    // Whoever signs in as the child (the child, a card's holder) gets no keep ticket, only the refusal.
    const refused = await call('POST', routes.loginByPassword.path, {
      identity: child.phone,
      password: child.password,
      pid: PID,
    });
    expectError(refused, 'AC3_44');
    expect(refused.body).not.toHaveProperty('deletion_ticket');
    expect(JSON.stringify(refused.body)).toContain('Only your guardian can stop it');

    const record = edu.ok<ChildRecord>(await recordOf(guardian, child.userId));
    expect(record.child.guardian_deletion_at).toBeGreaterThan(Date.now() + 14 * DAY);
    const keep = (who: Account) => call('POST', pathOf(routes.keepChildAccount.path, params), {}, { token: who.token });
    expectError(await keep(other), 'E_2');
    edu.ok(await keep(guardian), 204);
    expectError(await keep(guardian), 'E_1');
    expect(edu.ok<ChildRecord>(await recordOf(guardian, child.userId)).child).toMatchObject({
      guardian_deletion_at: null,
      frozen: false,
    });
    edu.ok(
      await call('POST', routes.loginByPassword.path, { identity: child.phone, password: child.password, pid: PID }),
    );
  });
});

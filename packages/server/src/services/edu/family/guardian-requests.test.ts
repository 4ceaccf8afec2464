/**
 * Guardianship the family controls, over HTTP against the real server (SQLite and PostgreSQL): a
 * stranger who spends a child's guardian code while the child has a consenting mother gets a pending
 * request and nothing of the child (no record, export, withdrawal, deletion, device ending, access
 * log); the mother sees who asks (name, masked phone, relation) and approves or refuses; nobody
 * deciding within EDU_GUARDIAN_WAIT_DAYS approves it (on the moved clock), the guardians told; the
 * family's first link is at once, but a first guardian who did not consent waits as long for a copy
 * of the data; parallel spends and decisions are atomic. And consent only from an adult: an account of
 * unknown age is asked its birth month first, a minor is refused.
 */
import {
  type ChildRecord,
  ClientCode,
  type GuardianChildren,
  type GuardianCode,
  type GuardianRequests,
  type LinkedChild,
  type OwnGuardians,
  routes,
} from '@edupass/protocol';
import { type Account, expectError, signIn, signUp } from '@edupass/test-kit/accounts';
import { bornYearsAgo, eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { movableClock } from '@edupass/test-kit/server-clock';
import { describe, expect, it } from 'vitest';
import { sweepOnce } from '../../platform/housekeeping.ts';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);
const { signUpAged } = edu;
const DAY = 24 * 3_600_000;
const moveClock = movableClock(server);

const as = (who: Account) => ({ token: who.token });
/** The same people signed in again on the moved clock (their earlier access tokens lapsed). */
const later = async (...people: Account[]) => {
  for (const who of people) who.token = (await signIn(server, who.phone)).access.token;
};
const openCode = async (child: Account) =>
  edu.ok<GuardianCode>(await call('POST', routes.openGuardianCode.path, {}, as(child))).code;
const link = (who: Account, code: string, relation = 'other') =>
  call<LinkedChild>('POST', routes.linkChild.path, { code, relation }, as(who));
const requestsOf = async (who: Account) =>
  edu.ok<GuardianRequests>(await call('GET', routes.guardianRequests.path, undefined, as(who)));
const approve = (who: Account, id: number) =>
  call('POST', pathOf(routes.approveGuardianRequest.path, { id }), {}, as(who));
const refuse = (who: Account, id: number) =>
  call('POST', pathOf(routes.refuseGuardianRequest.path, { id }), {}, as(who));
const childrenOf = async (who: Account) =>
  edu.ok<GuardianChildren>(await call('GET', routes.guardianChildren.path, undefined, as(who))).children;
const guardiansOf = async (child: Account) =>
  edu.ok<OwnGuardians>(await call('GET', routes.ownGuardians.path, undefined, as(child))).guardians;
const recordOf = (who: Account, childId: number) =>
  call<ChildRecord>('GET', pathOf(routes.childRecord.path, { id: childId }), undefined, as(who));
const exportOf = (who: Account, childId: number) =>
  call('POST', pathOf(routes.requestChildExport.path, { id: childId }), { lang: 'en' }, as(who));
/** The notices (no code) sent to a phone, newest first. */
const noticesTo = async (phone: string) =>
  (await call<{ text: string; code: string }[]>('GET', `/dev/outbox?to=${encodeURIComponent(phone)}`)).body
    .filter((row) => row.code === '')
    .map((row) => row.text);

const consent = async (child: Account, guardian: Account, relation = 'mother') => {
  const { link: consentLink } = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, as(child)),
  );
  return call('POST', routes.decideConsent.path, { link: consentLink, decision: 'consent', relation }, as(guardian));
};

/** A child of 9 whose mother consented (and is linked by it). */
const familyWithMother = async () => {
  const child = await signUpAged(9);
  const mother = await signUpAged(36);
  edu.ok(await consent(child, mother), 204);
  return { child, mother };
};

/** Everything a guardian may do to a child, each of which a pending requester is refused with E_2. */
const guardianActs = (who: Account, childId: number) => ({
  record: () => recordOf(who, childId),
  export: () => exportOf(who, childId),
  exports: () => call('GET', pathOf(routes.listChildExports.path, { id: childId }), undefined, as(who)),
  accessLog: () => call('GET', pathOf(routes.childAccessLog.path, { id: childId }), undefined, as(who)),
  withdraw: () => call('POST', pathOf(routes.withdrawConsent.path, { id: childId }), {}, as(who)),
  delete: () => call('POST', pathOf(routes.deleteChildAccount.path, { id: childId }), {}, as(who)),
  endDevice: () =>
    call('POST', pathOf(routes.endChildDevice.path.replace(':key', 'any'), { id: childId }), {}, as(who)),
  minor: () =>
    call('PUT', pathOf(routes.setChildMinorMode.path, { id: childId }), { daily_limit_minutes: 10 }, as(who)),
});

const expectShutOut = async (who: Account, childId: number) => {
  for (const [name, act] of Object.entries(guardianActs(who, childId))) {
    const answer = await act();
    expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(404);
    expectError(answer, 'E_2');
  }
};

describe('a guardian code spent while the child has a consenting guardian', () => {
  it('gives a stranger a pending request and nothing of the child; the mother is told who asks', async () => {
    const { child, mother } = await familyWithMother();
    const stranger = await signUpAged(40);
    const asked = edu.ok<LinkedChild>(await link(stranger, await openCode(child)));
    expect(asked).toMatchObject({ child_id: child.userId, state: 'pending' });
    expect(asked.opens_at).toBeGreaterThan(Date.now() + 7 * DAY - 60_000);

    await expectShutOut(stranger, child.userId);
    expect(await childrenOf(stranger)).toEqual([]);
    expect((await guardiansOf(child)).map((g) => g.id)).toEqual([mother.userId]);
    // The child is still granted, not frozen or deleting: the stranger's attempts changed nothing.
    expect(edu.ok<ChildRecord>(await recordOf(mother, child.userId)).child).toMatchObject({
      consent_state: 'granted',
      frozen: false,
      guardian_deletion_at: null,
    });

    const { to_decide } = await requestsOf(mother);
    expect(to_decide).toEqual([
      {
        id: expect.any(Number),
        child: { id: child.userId, nickname: expect.any(String) },
        name: expect.any(String),
        phone: `${stranger.phone.slice(0, 3)}****${stranger.phone.slice(-4)}`,
        relation: 'other',
        school: null,
        asked_at: expect.any(Number),
        opens_at: asked.opens_at,
      },
    ]);
    expect((await requestsOf(stranger)).mine).toEqual([
      expect.objectContaining({ state: 'pending', relation: 'other' }),
    ]);
    expect((await requestsOf(stranger)).to_decide).toEqual([]);
    const told = await noticesTo(mother.phone);
    expect(told.some((text) => text.includes(`${stranger.phone.slice(0, 3)}****${stranger.phone.slice(-4)}`))).toBe(
      true,
    );
    expect(told.some((text) => /asks to become a guardian/.test(text))).toBe(true);
    // The stranger cannot decide their own request, nor can anyone else who is not the child's guardian.
    const id = to_decide[0]?.id ?? 0;
    expectError(await approve(stranger, id), 'E_2');
    expectError(await approve(await signUpAged(50), id), 'E_2');
    expectError(await approve(child, id), 'E_2');
  });

  it('the mother approves: the stranger becomes a guardian, and the child and every guardian are told', async () => {
    const { child, mother } = await familyWithMother();
    const father = await signUpAged(41);
    edu.ok<LinkedChild>(await link(father, await openCode(child), 'father'));
    const [request] = (await requestsOf(mother)).to_decide;
    edu.ok(await approve(mother, request?.id ?? 0), 204);
    expectError(await approve(mother, request?.id ?? 0), 'E_1');

    expect((await guardiansOf(child)).map((g) => [g.id, g.relation])).toEqual([
      [mother.userId, 'mother'],
      [father.userId, 'father'],
    ]);
    expect(edu.ok<ChildRecord>(await recordOf(father, child.userId)).child.relation).toBe('father');
    expect((await requestsOf(father)).mine).toEqual([expect.objectContaining({ state: 'approved' })]);
    expect((await exportOf(father, child.userId)).status).toBe(200);
    for (const phone of [child.phone, mother.phone, father.phone]) {
      expect((await noticesTo(phone)).some((text) => /is now a guardian of/.test(text))).toBe(true);
    }
  });

  it('the mother refuses: nothing is linked, and the stranger stays shut out', async () => {
    const { child, mother } = await familyWithMother();
    const stranger = await signUpAged(33);
    edu.ok(await link(stranger, await openCode(child)));
    const [request] = (await requestsOf(mother)).to_decide;
    edu.ok(await refuse(mother, request?.id ?? 0), 204);
    expectError(await approve(mother, request?.id ?? 0), 'E_1');
    expect((await requestsOf(mother)).to_decide).toEqual([]);
    expect((await requestsOf(stranger)).mine).toEqual([expect.objectContaining({ state: 'refused' })]);
    expect((await guardiansOf(child)).map((g) => g.id)).toEqual([mother.userId]);
    await expectShutOut(stranger, child.userId);
    // Refused stays refused when the waiting period passes.
    moveClock(8 * DAY);
    await later(stranger, mother, child);
    await sweepOnce(server.app.ctx);
    await expectShutOut(stranger, child.userId);
    expect((await noticesTo(child.phone)).some((text) => /is now a guardian of/.test(text))).toBe(false);
  });

  it('nobody decides within the waiting period: the request is approved, the guardians told', async () => {
    const { child, mother } = await familyWithMother();
    const grandma = await signUpAged(66);
    const { opens_at } = edu.ok<LinkedChild>(await link(grandma, await openCode(child), 'grandparent'));
    moveClock(6 * DAY);
    await later(grandma);
    await expectShutOut(grandma, child.userId);
    moveClock(Number(opens_at) - Date.now() + 60_000);
    await later(grandma, mother, child);
    expect(edu.ok<ChildRecord>(await recordOf(grandma, child.userId)).child.relation).toBe('grandparent');
    expect((await childrenOf(grandma)).map((c) => c.id)).toEqual([child.userId]);
    expect((await requestsOf(mother)).to_decide).toEqual([]);
    for (const phone of [child.phone, mother.phone]) {
      expect((await noticesTo(phone)).some((text) => /is now a guardian of/.test(text))).toBe(true);
    }
  });

  it("the hourly sweep approves a request nobody decided, without the requester's asking", async () => {
    const { child } = await familyWithMother();
    const uncle = await signUpAged(45);
    edu.ok(await link(uncle, await openCode(child)));
    moveClock(server.config.eduGuardianWaitDays * DAY + 60_000);
    await sweepOnce(server.app.ctx);
    const row = await server.app.ctx.db
      .selectFrom('guardians')
      .select('guardian_id')
      .where('child_id', '=', child.userId)
      .where('guardian_id', '=', uncle.userId)
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it('the waiting period is the operator’s setting (EDU_GUARDIAN_WAIT_DAYS)', async () => {
    const { child } = await familyWithMother();
    const config = server.app.ctx.config as { eduGuardianWaitDays: number };
    const days = config.eduGuardianWaitDays;
    config.eduGuardianWaitDays = 2;
    try {
      const asked = edu.ok<LinkedChild>(await link(await signUpAged(39), await openCode(child)));
      expect(Number(asked.opens_at) - Date.now()).toBeGreaterThan(2 * DAY - 60_000);
      expect(Number(asked.opens_at) - Date.now()).toBeLessThan(2 * DAY + 60_000);
    } finally {
      config.eduGuardianWaitDays = days;
    }
    expect(days).toBe(7);
  });
});

describe("a teacher's code", () => {
  it("names the pupil's school to the guardian who decides, and a reset still makes it useless", async () => {
    const schoolId = await edu.addSchool('星光小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['李小雨']);
    const pupilId = Number(pupil?.user_id);
    const path = pathOf(routes.pupilGuardianCode.path, { id: classId, user_id: pupilId });
    const teacherCode = async () => edu.ok<GuardianCode>(await call('POST', path, {}, { token: teacher.token })).code;
    const father = await signUpAged(40);
    expect(edu.ok<LinkedChild>(await link(father, await teacherCode(), 'father')).state).toBe('linked');
    const stranger = await signUpAged(29);
    expect(edu.ok<LinkedChild>(await link(stranger, await teacherCode())).state).toBe('pending');
    expect((await requestsOf(father)).to_decide).toEqual([
      expect.objectContaining({ child: expect.objectContaining({ id: pupilId }), school: '星光小学' }),
    ]);
    await expectShutOut(stranger, pupilId);

    const lost = await teacherCode();
    edu.ok(
      await call(
        'POST',
        pathOf(routes.resetPupils.path, { id: classId }),
        { user_ids: [pupilId] },
        { token: teacher.token },
      ),
    );
    expectError(await link(await signUpAged(33), lost), 'E_2');
  });
});

describe('parallel link attempts and decisions', () => {
  it('two adults spending two codes of a child without a guardian at once: one is the first link, the other waits', async () => {
    const child = await signUpAged(10);
    const [a, b] = [await signUpAged(35), await signUpAged(37)];
    const [codeA, codeB] = [await openCode(child), await openCode(child)];
    const answers = await Promise.all([link(a, codeA), link(b, codeB)]);
    const states = answers.map((answer) => edu.ok<LinkedChild>(answer).state).sort();
    expect(states).toEqual(['linked', 'pending']);
    expect(await guardiansOf(child)).toHaveLength(1);
  });

  it('one adult spending two codes at once asks once; an approval and a refusal racing decide once', async () => {
    const { child, mother } = await familyWithMother();
    const stranger = await signUpAged(31);
    const codes = [await openCode(child), await openCode(child)];
    const answers = await Promise.all(codes.map((code) => link(stranger, code)));
    expect(answers.map((answer) => edu.ok<LinkedChild>(answer).state)).toEqual(['pending', 'pending']);
    const { to_decide } = await requestsOf(mother);
    expect(to_decide).toHaveLength(1);
    const id = to_decide[0]?.id ?? 0;
    const raced = await Promise.all([approve(mother, id), refuse(mother, id), approve(mother, id)]);
    expect(raced.filter((answer) => answer.status === 204)).toHaveLength(1);
    const state = (await requestsOf(stranger)).mine[0]?.state;
    expect((await guardiansOf(child)).some((g) => g.id === stranger.userId)).toBe(state === 'approved');
  });
});

describe("the family's first link", () => {
  it('links at once, but a first guardian who did not consent takes no copy of the data until the waiting period passed', async () => {
    const child = await signUpAged(12);
    const first = await signUpAged(38);
    expect(edu.ok<LinkedChild>(await link(first, await openCode(child), 'father'))).toEqual({
      child_id: child.userId,
      state: 'linked',
      opens_at: null,
    });
    edu.ok(await recordOf(first, child.userId));
    const refused = await exportOf(first, child.userId);
    expectError(refused, 'E_1');
    expect(JSON.stringify(refused.body)).toContain('did not give the consent');
    expect((await noticesTo(child.phone)).some((text) => /is now a guardian of/.test(text))).toBe(true);
    moveClock(7 * DAY + 60_000);
    await later(first);
    expect((await exportOf(first, child.userId)).status).toBe(200);
  });

  it('the guardian who gave the consent takes a copy at once', async () => {
    const { child, mother } = await familyWithMother();
    expect((await exportOf(mother, child.userId)).status).toBe(200);
  });
});

describe('consent only from an adult', () => {
  it('an account of unknown age is asked its year and month of birth first; once adult it decides', async () => {
    const child = await signUpAged(8);
    const unknown = await signUp(server);
    const asked = await consent(child, unknown);
    expectError(asked, 'E_1', ClientCode.INVALID_BIRTHDAY);
    expect((asked.body as { error_message: string }).error_message).toMatch(/year and month you were born/);
    expect(
      edu.ok<{ consent_state: string | null }>(await call('GET', routes.ownConsent.path, undefined, as(child)))
        .consent_state,
    ).toBe('pending');

    const answered = await call('PUT', routes.setOwnAge.path, { birth_year_month: bornYearsAgo(34) }, as(unknown));
    expect(edu.ok(answered)).toEqual({ age_band: 'adult', consent_state: null });
    // Given once: a second answer changes nothing.
    expectError(await call('PUT', routes.setOwnAge.path, { birth_year_month: bornYearsAgo(10) }, as(unknown)), 'E_1');
    expectError(await call('PUT', routes.setOwnAge.path, { birth_year_month: '2999-01' }, as(child)), 'E_1');
    edu.ok(await consent(child, unknown), 204);
  });

  it('a minor is refused in plain words, also when reading the request', async () => {
    const child = await signUpAged(9);
    const teen = await signUpAged(15);
    const refused = await consent(child, teen);
    expectError(refused, 'E_1');
    expect((refused.body as { error_message: string }).error_message).toMatch(/Only an adult can decide for a child/);
    const { link: consentLink } = edu.ok<{ link: string }>(
      await call('POST', routes.openConsentLink.path, {}, as(child)),
    );
    expectError(await call('POST', routes.consentRequest.path, { link: consentLink }, as(teen)), 'E_1');
    // An unknown age that answers as a child is a child.
    const young = await signUp(server);
    expect(
      edu.ok<{ age_band: string }>(
        await call('PUT', routes.setOwnAge.path, { birth_year_month: bornYearsAgo(12) }, as(young)),
      ),
    ).toEqual({ age_band: '8_13', consent_state: 'pending' });
    expectError(await consent(child, young), 'E_1');
  });
});

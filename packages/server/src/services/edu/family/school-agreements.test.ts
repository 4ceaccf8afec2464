/**
 * What an operator sets behind children's consent, over HTTP: the consent text (every element the
 * rules require, both languages, each save a new version that new consents record) and a school's
 * agreement (who signed for the school, when, under which text version), which decides whether the
 * pupils its teachers create start under the school's consent or wait for a guardian's.
 */
import {
  CONSENT_ELEMENTS,
  type ConsentRequest,
  type ConsentText,
  DAY_MS,
  type EduMemberships,
  routes,
  type SchoolAgreement,
} from '@edupass/protocol';
import { type Account, expectError, PID, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

const asOperator = async () => ({ token: await edu.operatorToken() });
const textOf = (tag: string) => ({
  'zh-CN': Object.fromEntries(CONSENT_ELEMENTS.map((e) => [e, `${tag} 中文 ${e}`])),
  en: Object.fromEntries(CONSENT_ELEMENTS.map((e) => [e, `${tag} English ${e}`])),
});

/** The consent state of a pupil the teacher creates now. */
const newPupilState = async (teacher: Account, classId: number) => {
  const [pupil] = await edu.createPupils(teacher, classId, ['李小龙']);
  if (!pupil) throw new Error('no pupil');
  const { token } = await edu.pupilSession(pupil);
  return edu.ok<{ consent_state: string | null }>(await call('GET', routes.ownConsent.path, undefined, { token }))
    .consent_state;
};

describe('the consent text', () => {
  it('is edited per element and language; each save is a version that new consents record', async () => {
    const before = edu.ok<ConsentText>(await call('GET', routes.getConsentText.path, undefined, await asOperator()));
    expect(Object.keys(before['zh-CN']).sort()).toEqual([...CONSENT_ELEMENTS].sort());
    const saved = edu.ok<ConsentText>(
      await call('PUT', routes.saveConsentText.path, textOf('v-next'), await asOperator()),
    );
    expect(saved.version).toBe(before.version + 1);
    expect(saved.en.refusal).toBe('v-next English refusal');
    expect(edu.ok<ConsentText>(await call('GET', routes.getConsentText.path, undefined, await asOperator()))).toEqual(
      saved,
    );

    // A guardian now reads the new words and consents under the new version.
    const child = await edu.signUpAged(10);
    const guardian = await edu.signUpAged(40);
    const { link } = edu.ok<{ link: string }>(
      await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
    );
    const shown = edu.ok<ConsentRequest>(
      await call('POST', routes.consentRequest.path, { link }, { token: guardian.token }),
    );
    expect(shown.text).toEqual(saved);
    edu.ok(
      await call(
        'POST',
        routes.decideConsent.path,
        { link, decision: 'consent', relation: 'mother' },
        { token: guardian.token },
      ),
      204,
    );
    const record = await server.app.ctx.db
      .selectFrom('guardian_consents')
      .select('text_version')
      .where('child_id', '=', child.userId)
      .executeTakeFirstOrThrow();
    expect(record.text_version).toBe(saved.version);
  });

  it('refuses a text missing an element, an empty or overlong one, or the wrong shape (E_1), and keeps the version', async () => {
    const { version } = edu.ok<ConsentText>(
      await call('GET', routes.getConsentText.path, undefined, await asOperator()),
    );
    const full = textOf('bad');
    const { rights: _, ...withoutRights } = full.en;
    for (const body of [
      { ...full, en: withoutRights },
      { ...full, 'zh-CN': { ...full['zh-CN'], purpose: '   ' } },
      { ...full, en: { ...full.en, data: 'x'.repeat(2001) } },
      { ...full, en: 'purpose' },
      { ...full, en: { ...full.en, storage: 42 } },
      { 'zh-CN': full['zh-CN'] },
    ]) {
      expectError(await call('PUT', routes.saveConsentText.path, body, await asOperator()), 'E_1');
    }
    // Extra keys are not stored.
    const saved = edu.ok<ConsentText>(
      await call('PUT', routes.saveConsentText.path, { ...full, en: { ...full.en, extra: 'no' } }, await asOperator()),
    );
    expect(saved.version).toBe(version + 1);
    expect(Object.keys(saved.en).sort()).toEqual([...CONSENT_ELEMENTS].sort());
  });

  it('keeps every version it numbered; of saves at the same moment one takes the number, the others are E_1', async () => {
    const token = await asOperator();
    const before = edu.ok<ConsentText>(await call('GET', routes.getConsentText.path, undefined, token));
    const answers = await Promise.all(
      ['race-a', 'race-b', 'race-c', 'race-d'].map((tag) =>
        call('PUT', routes.saveConsentText.path, textOf(tag), token),
      ),
    );
    const saved = answers.filter((a) => a.status === 200).map((a) => a.body as ConsentText);
    expect(saved.length).toBeGreaterThanOrEqual(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expectError(refused, 'E_1');
    // Every number taken once, by the text that was saved under it.
    expect(new Set(saved.map((t) => t.version)).size).toBe(saved.length);
    const current = edu.ok<ConsentText>(await call('GET', routes.getConsentText.path, undefined, token));
    expect(saved).toContainEqual(current);
    // An earlier version's words are still kept after a later save.
    const later = edu.ok<ConsentText>(await call('PUT', routes.saveConsentText.path, textOf('after-race'), token));
    expect(later.version).toBe(current.version + 1);
    const kept = await server.app.ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', `guardian_consent_text:v${current.version}`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(kept.value)).toEqual(current);
    expect(current.version).toBeGreaterThan(before.version);
  });

  it('is for operators only', async () => {
    const someone = await edu.signUpAged(30);
    expectError(await call('GET', routes.getConsentText.path, undefined, { token: someone.token }), 'E_4');
    expectError(await call('PUT', routes.saveConsentText.path, textOf('x'), { token: someone.token }), 'E_4');
  });
});

describe("a school's agreement", () => {
  it("decides whether a teacher's new pupils start under the school's consent or wait for a guardian", async () => {
    const schoolId = await edu.addSchool('协议小学', undefined, false);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '二年级一班');
    const list = async () =>
      edu.ok<SchoolAgreement[]>(
        await call('GET', pathOf(routes.listSchoolAgreements.path, { id: schoolId }), undefined, await asOperator()),
      );
    expect(await list()).toEqual([]);
    expect(await newPupilState(teacher, classId)).toBe('pending');

    const { version } = edu.ok<ConsentText>(
      await call('GET', routes.getConsentText.path, undefined, await asOperator()),
    );
    const recorded = edu.ok<SchoolAgreement>(
      await call(
        'POST',
        pathOf(routes.recordSchoolAgreement.path, { id: schoolId }),
        { signatory: '  张校长（校长）  ', signed_on: '2025-08-30' },
        await asOperator(),
      ),
    );
    expect(recorded).toMatchObject({
      school_id: schoolId,
      signatory: '张校长（校长）',
      signed_on: '2025-08-30',
      text_version: version,
      ended_at: null,
      applications: [],
    });
    expect(await list()).toEqual([recorded]);
    expect(await newPupilState(teacher, classId)).toBe('school');

    edu.ok(await call('POST', pathOf(routes.endSchoolAgreement.path, { id: schoolId }), {}, await asOperator()), 204);
    expect((await list())[0]?.ended_at).toEqual(expect.any(Number));
    expect(await newPupilState(teacher, classId)).toBe('pending');
    expectError(
      await call('POST', pathOf(routes.endSchoolAgreement.path, { id: schoolId }), {}, await asOperator()),
      'E_1',
    );

    // A new agreement replaces the one in force: recorded twice, one stands.
    for (const signed_on of ['2025-09-01', '2025-09-02']) {
      edu.ok(
        await call(
          'POST',
          pathOf(routes.recordSchoolAgreement.path, { id: schoolId }),
          { signatory: '李校长（校长）', signed_on },
          await asOperator(),
        ),
      );
    }
    const standing = (await list()).filter((a) => a.ended_at === null);
    expect(standing.map((a) => a.signed_on)).toEqual(['2025-09-02']);
  });

  it('refuses a day that is not one, in the future, or no signatory (E_1); an unknown school is E_2', async () => {
    const schoolId = await edu.addSchool('日期小学', undefined, false);
    const path = pathOf(routes.recordSchoolAgreement.path, { id: schoolId });
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    for (const [signatory, signed_on] of [
      ['校长', '2025-02-30'],
      ['校长', '2025/08/30'],
      ['校长', nextYear],
      ['校长', '1999-12-31'],
      ['   ', '2025-08-30'],
      ['校\u0007长', '2025-08-30'],
    ] as const) {
      expectError(await call('POST', path, { signatory, signed_on }, await asOperator()), 'E_1');
    }
    const missing = pathOf(routes.recordSchoolAgreement.path, { id: 987_654 });
    expectError(await call('POST', missing, { signatory: '校长', signed_on: '2025-08-30' }, await asOperator()), 'E_2');
    expectError(
      await call('GET', pathOf(routes.listSchoolAgreements.path, { id: 987_654 }), undefined, await asOperator()),
      'E_2',
    );
    const someone = await edu.signUpAged(30);
    expectError(
      await call('POST', path, { signatory: '校长', signed_on: '2025-08-30' }, { token: someone.token }),
      'E_4',
    );
  });

  it("names the third-party applications it covers: registered ones only, not the platform's own (E_1)", async () => {
    const schoolId = await edu.addSchool('应用小学', undefined, false);
    const path = pathOf(routes.recordSchoolAgreement.path, { id: schoolId });
    const register = async (first_party: boolean) =>
      edu.ok<{ application: { client_id: string } }>(
        await call(
          'POST',
          '/admin/applications',
          {
            name: first_party ? 'Courses' : 'Homework Helper',
            first_party,
            confidential: true,
            redirect_uris: ['https://a.example.com/cb'],
          },
          await asOperator(),
        ),
      ).application.client_id;
    const [third, first] = [await register(false), await register(true)];
    const record = async (applications: unknown) =>
      call<SchoolAgreement>(
        'POST',
        path,
        { signatory: '校长', signed_on: '2025-08-30', applications },
        await asOperator(),
      );

    const recorded = edu.ok<SchoolAgreement>(await record([third, ` ${third} `]));
    expect(recorded.applications).toEqual([third]);
    expect(
      edu.ok<SchoolAgreement[]>(
        await call('GET', pathOf(routes.listSchoolAgreements.path, { id: schoolId }), undefined, await asOperator()),
      )[0]?.applications,
    ).toEqual([third]);
    for (const bad of [['no-such-app'], [first], [''], 'not-a-list', Array.from({ length: 51 }, (_, i) => `a${i}`)]) {
      expectError(await record(bad), 'E_1');
    }
    // Refused ones changed nothing: the first stands.
    const standing = edu
      .ok<SchoolAgreement[]>(
        await call('GET', pathOf(routes.listSchoolAgreements.path, { id: schoolId }), undefined, await asOperator()),
      )
      .filter((a) => a.ended_at === null);
    expect(standing).toEqual([recorded]);
  });

  it("stands for its pupils' acceptance of the platform's agreements while in force; for a pupil waiting for a guardian, the guardian decides", async () => {
    const schoolId = await edu.addSchool('卡片小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '二年级二班');
    const [pupil] = await edu.createPupils(teacher, classId, ['王子涵']);
    if (!pupil) throw new Error('no pupil');
    const toSign = async (token: string) =>
      edu.ok<unknown[]>(await call('GET', routes.listAgreementsToSign.path, undefined, { token })).length;
    // On the card's password, before a password of their own: no agreements gate.
    const first = edu.ok<{ auth: { token: { access: { token: string } } } }>(
      await call(
        'POST',
        routes.loginByPassword.path,
        { identity: pupil.username, password: pupil.password, pid: PID },
        { headers: TOKEN_SET_HEADERS },
      ),
    ).auth.token.access.token;
    expect(await toSign(first)).toBe(0);
    const { token } = await edu.pupilSession(pupil);
    expect(await toSign(token)).toBe(0);
    // The account centre greets the pupil by the name the teacher typed; nothing waits for a guardian.
    const me = async (session: string) =>
      edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token: session }));
    expect(await me(token)).toMatchObject({ pupil_name: '王子涵', deleted_without_consent_at: null });

    // A pupil of a school without an agreement waits for a guardian: no legal text meant for adults.
    const otherSchool = await edu.addSchool('无协议小学', undefined, false);
    const otherTeacher = await edu.approvedTeacher(otherSchool);
    const [waiting] = await edu.createPupils(otherTeacher, await edu.createClass(otherTeacher, otherSchool), [
      '李小龙',
    ]);
    if (!waiting) throw new Error('no pupil');
    const waitingToken = (await edu.pupilSession(waiting)).token;
    expect(await toSign(waitingToken)).toBe(0);
    // What waits for a guardian says when the account goes if nobody agrees: EDU_CONSENT_PENDING_DAYS on.
    const waitingMe = await me(waitingToken);
    expect(waitingMe.pupil_name).toBe('李小龙');
    const days = ((waitingMe.deleted_without_consent_at ?? 0) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(server.config.eduConsentPendingDays - 1);
    expect(days).toBeLessThanOrEqual(server.config.eduConsentPendingDays);

    // Ended, the agreement no longer signs for anyone: the school's pupils meet the gate again.
    edu.ok(await call('POST', pathOf(routes.endSchoolAgreement.path, { id: schoolId }), {}, await asOperator()), 204);
    expect(await toSign(token)).toBeGreaterThan(0);
  });
});

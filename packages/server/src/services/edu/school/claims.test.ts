import { type Account, signAgreementsInEffect } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, complete, discover } from '@edupass/test-kit/oidc-flow';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer();
const edu = eduSteps(server, call);
const CALLBACK = 'http://127.0.0.1:7101/callback';

describe('the edu scope', () => {
  let app: { id: string; secret: string };
  beforeAll(async () => {
    adoptOwnUrl();
    const registered = await registerApp(
      server,
      { name: 'Community', redirect_uris: [CALLBACK] },
      await edu.operatorToken(),
    );
    app = { id: registered.application.client_id, secret: String(registered.client_secret) };
  });

  /** Signs the holder of `token` in at the application (past the agreements gate): its ID token's claims and its userinfo. */
  const signInAtApp = async (token: string, scope = 'openid profile edu') => {
    await signAgreementsInEffect(server, token);
    const config = await discover(server, app.id, app.secret);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK, { scope });
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(await complete(server, browser, landed, token, CALLBACK)),
      checks,
    );
    const idToken = tokens.claims() as oidc.IDToken & Record<string, unknown>;
    return { idToken, userinfo: await oidc.fetchUserInfo(config, tokens.access_token, String(idToken.sub)) };
  };
  const userinfoOf = async (token: string) => (await signInAtApp(token)).userinfo;

  let school: { id: number; teacher: Account; classId: number; pupilToken: string } | undefined;
  /** A school with an approved teacher, the teacher's class and a pupil created there, signed in. */
  const schoolWithPupil = async () => {
    if (school) return school;
    const id = await edu.addSchool('星光小学');
    const teacher = await edu.approvedTeacher(id);
    const classId = await edu.createClass(teacher, id, '四年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['林小雨']);
    if (!pupil) throw new Error('no pupil');
    school = { id, teacher, classId, pupilToken: (await edu.pupilSession(pupil)).token };
    return school;
  };

  it("a teacher's and a pupil's schools, classes and roles; the pupil's account marked as the school's", async () => {
    const { id: schoolId, teacher, classId, pupilToken } = await schoolWithPupil();
    const pupilInfo = await userinfoOf(pupilToken);
    expect(pupilInfo).toMatchObject({
      managed_by_school: true,
      edu: {
        schools: [],
        classes: [{ id: classId, school_id: schoolId, name: '四年级一班', grade: 3, roles: ['pupil'] }],
      },
    });
    const teacherInfo = await userinfoOf(teacher.token);
    expect(teacherInfo).toMatchObject({
      managed_by_school: false,
      edu: {
        schools: [{ id: schoolId, name: '星光小学', roles: ['teacher'] }],
        classes: [{ id: classId, roles: ['head_teacher'] }],
      },
    });
  });

  it('the ID token carries the schools, classes, roles and the school mark, by ids and roles only', async () => {
    const { id: schoolId, teacher, classId, pupilToken } = await schoolWithPupil();
    const pupil = (await signInAtApp(pupilToken, 'openid edu')).idToken;
    expect(pupil.managed_by_school).toBe(true);
    expect(pupil.edu).toEqual({ schools: [], classes: [{ id: classId, school_id: schoolId, roles: ['pupil'] }] });
    const { idToken, userinfo } = await signInAtApp(teacher.token, 'openid edu');
    expect(idToken.managed_by_school).toBe(false);
    expect(idToken.edu).toEqual({
      schools: [{ id: schoolId, roles: ['teacher'] }],
      classes: [{ id: classId, school_id: schoolId, roles: ['head_teacher'] }],
    });
    // Names are for userinfo: the ID token stays small.
    expect(JSON.stringify(idToken)).not.toContain('星光小学');
    expect(userinfo).toMatchObject({ edu: { schools: [{ id: schoolId, name: '星光小学' }] } });
  });

  it('without the edu scope neither the ID token nor userinfo says anything of schools', async () => {
    const { teacher, pupilToken } = await schoolWithPupil();
    for (const token of [teacher.token, pupilToken]) {
      const { idToken, userinfo } = await signInAtApp(token, 'openid profile');
      for (const claims of [idToken, userinfo]) {
        expect(claims.sub).toMatch(/^[1-9][0-9]*$/);
        expect(claims).not.toHaveProperty('edu');
        expect(claims).not.toHaveProperty('managed_by_school');
      }
    }
  });
});

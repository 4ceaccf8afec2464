/** The `edu` scope read by a real relying party (openid-client): userinfo carries schools, classes, roles and the school mark. */

import { routes } from '@edupass/protocol';
import { PID, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
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

  const userinfoOf = async (token: string) => {
    const config = await discover(server, app.id, app.secret);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK, { scope: 'openid profile edu' });
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(await complete(server, browser, landed, token, CALLBACK)),
      checks,
    );
    return oidc.fetchUserInfo(config, tokens.access_token, String(tokens.claims()?.sub));
  };

  it("a teacher's and a pupil's schools, classes and roles; the pupil's account marked as the school's", async () => {
    const schoolId = await edu.addSchool('星光小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '四年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['林小雨']);
    const signedIn = await call<{ auth: { token: { access: { token: string } } } }>(
      'POST',
      routes.loginByPassword.path,
      { identity: pupil?.username, password: pupil?.password, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
    const pupilInfo = await userinfoOf(signedIn.body.auth.token.access.token);
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
});

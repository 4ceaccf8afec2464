/**
 * Signing in with the school's WeCom or DingTalk in Chromium on a phone, inside each app's own browser
 * (its User-Agent): from the sign-in screen, "sign in with your school", the school chosen, and the
 * app identifies the person silently — WeCom by its OAuth, DingTalk by EduPass's page asking the
 * JSAPI (the test kit's stand-in serves it) for a free-login code. The teacher the school's address
 * book matched lands signed in, on their own account.
 */
import { routes } from '@edupass/protocol';
import { signUp } from '@edupass/test-kit/accounts';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { client } from '@edupass/test-kit/http-client';
import { afterAll, expect, test } from 'vitest';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';

const app = withApp();
const PHONE = { width: 390, height: 844 };
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

const USER_AGENTS = {
  wecom: 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1 Language/zh',
  dingtalk:
    'Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 Chrome/104.0 Mobile Safari/537.36 AliApp(DingTalk/7.5.0) DingTalk(7.5.0)',
} as const;

const schoolWithApp = async (vendor: 'wecom' | 'dingtalk') => {
  const call = client(app.server.url);
  const teacher = await signUp(app.server);
  const book = schoolBook({
    name: `${vendor}-inapp-${Date.now() % 100_000}`,
    grades: 2,
    classesPerGrade: 5,
    pupilsPerClass: 2,
    teacherPhones: [teacher.phone],
  });
  const school = await startSchoolBook(app.server, call, vendor, book);
  closing.push(() => school.peer.close());
  const job = await school.sync();
  expect((await school.confirm(job.id)).body).toMatchObject({ status: 'applied' });
  const config = app.server.app.ctx.config;
  config.eduWecomOauthUrl = school.peer.url;
  config.eduDingtalkLoginUrl = school.peer.url;
  config.eduDingtalkJsapiUrl = `${school.peer.url}/dingtalk.open.js`;
  const appId = `${vendor}-${book.name}`;
  const code = `${vendor}-app-${Date.now() % 100_000}`;
  school.edu.ok(
    await call(
      'POST',
      routes.addSchoolConnector.path.replace(':id', String(school.schoolId)),
      {
        code,
        kind: 'workapp',
        name: `${book.name} ${vendor === 'wecom' ? '企业微信' : '钉钉'}`,
        settings:
          vendor === 'wecom'
            ? { vendor, corp_id: appId, agent_id: '1000002', client_secret: `secret-${book.name}` }
            : { vendor, corp_id: 'dingschool', client_id: appId, client_secret: `secret-${book.name}` },
      },
      { token: school.token },
    ),
  );
  school.peer.signIn.signInAs = book.teachers.find((t) => t.mobile === teacher.phone)?.id ?? '';
  return { book, code, teacher };
};

const zh = LOCALES.find((l) => l.locale === 'zh-CN') ?? LOCALES[0];

for (const vendor of ['wecom', 'dingtalk'] as const) {
  test(`${vendor}: inside the app's own browser, the school's button signs the teacher in silently`, async () => {
    const { book, teacher } = await schoolWithApp(vendor);
    const { text } = zh as NonNullable<typeof zh>;
    await inPage(app.browser, { locale: 'zh-CN', ...PHONE, userAgent: USER_AGENTS[vendor] }, async ({ page }) => {
      await page.goto(`${app.server.url}/`);
      await page.getByRole('link', { name: text['signIn.school'] }).click();
      await expectScreen(page, text['school.title']);
      await page.getByLabel(text['school.search']).fill(book.name);
      await page.locator('.school-choice').filter({ hasText: book.name }).first().click();
      await page.waitForURL((url) => url.pathname === '/account' || url.pathname.startsWith('/account'));
      const row = await app.server.app.ctx.db
        .selectFrom('school_sign_ins')
        .innerJoin('users', 'users.id', 'school_sign_ins.user_id')
        .select(['users.phone'])
        .orderBy('school_sign_ins.created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.phone).toBe(teacher.phone);
    });
  });
}

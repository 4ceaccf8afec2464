/**
 * Signing in with the school's work app: where the browser goes, and who the returned code names.
 *
 * - A browser outside the apps gets the vendor's QR-code login: WeCom's
 *   `{login}/wwlogin/sso/login?login_type=CorpApp&appid=<corpid>&agentid&redirect_uri&state`, DingTalk's
 *   `{login}/oauth2/auth?redirect_uri&response_type=code&client_id&scope=openid&state&prompt=consent`.
 * - Inside WeCom (User-Agent `wxwork/`): its OAuth page, which answers without asking,
 *   `{oauth}/connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope=snsapi_base&state&agentid#wechat_redirect`.
 * - Inside DingTalk (User-Agent `DingTalk`): EduPass's own small page, which asks the app's JSAPI for a
 *   free-login code (`dd.runtime.permission.requestAuthCode` with the corpId) and brings it back as
 *   `auth_code` with the state (in-app-page.ts).
 *
 * Every way comes back to the connector's `/app` address with the state this browser's cookie holds.
 */

import { BookApiError } from '../../../../adapters/address-book.ts';
import { ProviderUnreachableError } from '../../../../adapters/provider-http.ts';
import {
  dingtalkInAppPerson,
  dingtalkQrPerson,
  type WorkAppPerson,
  WorkAppRefused,
  wecomPerson,
} from '../../../../adapters/work-app-sign-in.ts';
import type { Context } from '../../../../context.ts';
import { fail, RetryLater } from '../../../../errors.ts';
import { unseal } from '../../../security/sealed-values.ts';
import type { UpstreamIdentity } from '../identity-mapping.ts';
import { secretName } from '../oidc/settings.ts';
import { type WorkAppSettings, workAppRedirectUri } from './settings.ts';

export interface WorkAppRef {
  code: string;
  workapp: WorkAppSettings;
}

/** The browser is WeCom's own (its in-app browser says `wxwork/` in its User-Agent). */
export const inWecom = (userAgent: string) => /\bwxwork\//i.test(userAgent);
/** The browser is DingTalk's own. */
export const inDingtalk = (userAgent: string) => /\bDingTalk\b/i.test(userAgent);

/** Where the browser goes to sign in (the QR-code login, or WeCom's in-app OAuth). */
export const workAppStartUrl = (ctx: Context, c: WorkAppRef, state: string, userAgent: string): string => {
  const redirectUri = workAppRedirectUri(ctx, c.code);
  const s = c.workapp;
  if (s.vendor === 'wecom' && inWecom(userAgent)) {
    const query = new URLSearchParams({
      appid: s.corpId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_base',
      state,
      agentid: s.agentId,
    });
    return `${ctx.config.eduWecomOauthUrl}/connect/oauth2/authorize?${query}#wechat_redirect`;
  }
  if (s.vendor === 'wecom') {
    const query = new URLSearchParams({
      login_type: 'CorpApp',
      appid: s.corpId,
      agentid: s.agentId,
      redirect_uri: redirectUri,
      state,
    });
    return `${ctx.config.eduWecomLoginUrl}/wwlogin/sso/login?${query}`;
  }
  const query = new URLSearchParams({
    redirect_uri: redirectUri,
    response_type: 'code',
    client_id: s.clientId,
    scope: 'openid',
    state,
    prompt: 'consent',
  });
  return `${ctx.config.eduDingtalkLoginUrl}/oauth2/auth?${query}`;
};

const secretOf = (ctx: Context, c: WorkAppRef) => {
  const secret = unseal(ctx.keys.sealing, c.workapp.clientSecretSealed, secretName(c.code));
  if (secret === undefined) {
    ctx.logger.error({ connector: c.code }, 'work app secret does not open: set it again');
    throw new RetryLater(60, "The school's sign-in system is not available. Try again later.");
  }
  return secret;
};

/** The code a return carries, and which way it came (DingTalk's in-app page names it `auth_code`). */
export const returnedCode = (fields: Record<string, unknown>) => {
  const field = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  if (field('auth_code')) return { code: field('auth_code'), inApp: true };
  return { code: field('code') || field('authCode'), inApp: false };
};

const personOf = (ctx: Context, c: WorkAppRef, code: string, inApp: boolean): Promise<WorkAppPerson> => {
  const s = c.workapp;
  const now = () => ctx.now();
  if (s.vendor === 'wecom') {
    return wecomPerson(ctx.config.eduWecomApiUrl, { appId: s.corpId, secret: secretOf(ctx, c) }, code, now);
  }
  const app = { appId: s.clientId, secret: secretOf(ctx, c) };
  return inApp
    ? dingtalkInAppPerson(ctx.config.eduDingtalkApiUrl, app, code, now)
    : dingtalkQrPerson({ api: ctx.config.eduDingtalkOpenApiUrl, oapi: ctx.config.eduDingtalkApiUrl }, app, code, now);
};

const ROLES = { member: [], parent: ['guardian'], student: ['pupil'] } as const;

/**
 * Who the code names, in the school's organisation: `<vendor>:<userid>` (the key its address book's
 * roster gave them). AC3_27 when the vendor refuses the code or names someone outside the
 * organisation; 503 when it does not answer (or its token cannot be had).
 */
export const finishWorkAppSignIn = async (
  ctx: Context,
  c: WorkAppRef,
  code: string,
  inApp: boolean,
): Promise<UpstreamIdentity> => {
  let person: WorkAppPerson;
  try {
    person = await personOf(ctx, c, code, inApp);
  } catch (error) {
    if (error instanceof WorkAppRefused) {
      ctx.logger.warn({ connector: c.code, err: error.message }, 'work app refused the sign-in');
      return fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
    }
    if (error instanceof BookApiError || error instanceof ProviderUnreachableError) {
      ctx.logger.warn({ connector: c.code, err: error.message }, 'work app unreachable');
      throw new RetryLater(30, "The school's sign-in system did not answer. Try again later.");
    }
    throw error;
  }
  const attributes: Record<string, string[]> = { role: [...ROLES[person.kind]] };
  if (person.name) attributes.name = [person.name];
  return { user: `${c.workapp.vendor}:${person.userid}`, attributes };
};

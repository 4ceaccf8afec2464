/** The shared setup of the captcha enforcement tests: the operator's policy, tickets and every guarded action. */
import { ACCOUNTS_BASE as A } from '@edupass/protocol';
import { nextEmail, nextPhone, PASSWORD, PID, signUp, signUpByEmail } from '@edupass/test-kit/accounts';
import type { TestServer } from '@edupass/test-kit/harness';
import type { Answer } from '@edupass/test-kit/http-client';
import { providerReturn, useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { expect } from 'vitest';
import type { CaptchaPolicy } from '../config/captcha-config.ts';
import { setCaptchaPolicy } from '../services/captcha/policy.ts';

export const TICKET = 'X-Captcha-Ticket';

/** The operator's policy for every product and scene, as the console sets it. */
export const usePolicy = (target: TestServer, policy: CaptchaPolicy) =>
  setCaptchaPolicy(target.app.ctx, '*', '*', policy);

export const withTicket = (ticket?: string) => (ticket === undefined ? {} : { headers: { [TICKET]: ticket } });

export interface Prepared {
  /** The ticket binding the web client asks the rule for. */
  scene: string;
  identity: string;
  /** The action, once with the given ticket (or none). */
  act(ticket?: string): Promise<Answer>;
  /** What it answers when allowed. */
  ok: 200 | 204;
}

/** The file's test server (its PUBLIC_URL its address) and the guarded actions on it. */
export const useCaptchaServer = () => {
  const { server, call } = useOauthTestServer();

  let oauthSeq = 0;
  /** An oauth_ticket of a fresh WeChat identity nobody has signed in with. */
  const oauthTicket = async () => {
    const back = await providerReturn(server, 'wechat', `测试${Date.now().toString(36).slice(-4)}${++oauthSeq}`);
    const answer = await call<{ oauth_ticket: string }>(
      'POST',
      `${A}/oauth/wechat`,
      { code: back.code, state: back.state, pid: PID },
      { headers: { cookie: back.cookie } },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.oauth_ticket;
  };

  /** Every guarded action, each prepared fresh (its account, phone or oauth_ticket) under policy `never`. */
  const ACTIONS: Record<string, () => Promise<Prepared>> = {
    async 'register code'() {
      const phone = nextPhone();
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'register',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/register/phone/with-agreement`, body, withTicket(t)),
      };
    },
    async 'login code'() {
      const { phone } = await signUp(server);
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'login',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/login/post-process`, body, withTicket(t)),
      };
    },
    async 'silent login code'() {
      const phone = nextPhone();
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'silence',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/login/silence`, body, withTicket(t)),
      };
    },
    async 'reset code'() {
      const { phone } = await signUp(server);
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'reset',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/password/reset`, body, withTicket(t)),
      };
    },
    async 'common code'() {
      const phone = nextPhone();
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'common',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/common`, body, withTicket(t)),
      };
    },
    async 'voice code'() {
      const phone = nextPhone();
      const body = { phone_number: phone, type: 'register', pid: PID };
      return {
        scene: 'register',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/voice/captcha/send`, body, withTicket(t)),
      };
    },
    async 'e-mail code'() {
      const email = nextEmail();
      const body = { email, pid: PID };
      return {
        scene: 'email_register',
        identity: email,
        ok: 204,
        act: (t) => call('POST', `${A}/email/captcha/send`, body, withTicket(t)),
      };
    },
    async 'bind-phone code'() {
      const { token } = await signUpByEmail(server);
      const phone = nextPhone();
      const body = { phone_number: phone, pid: PID };
      return {
        scene: 'bind',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/phone/bind`, body, { token, ...withTicket(t) }),
      };
    },
    async 'rebind code'() {
      const account = await signUp(server);
      const phone = nextPhone();
      const body = { phone_number: phone, old_phone_number: account.phone, pid: PID };
      return {
        scene: 'change',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/phone/change`, body, { token: account.token, ...withTicket(t) }),
      };
    },
    async 'password-update code'() {
      const account = await signUp(server);
      const body = { phone_number: account.phone, pid: PID };
      return {
        scene: 'password_update',
        identity: account.phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/password/update`, body, { token: account.token, ...withTicket(t) }),
      };
    },
    async 'third-party bind code'() {
      const oauth_ticket = await oauthTicket();
      const phone = nextPhone();
      const body = { phone_number: phone, oauth_ticket, pid: PID };
      return {
        scene: 'oauth',
        identity: phone,
        ok: 204,
        act: (t) => call('POST', `${A}/captcha/oauth`, body, withTicket(t)),
      };
    },
    async 'password login'() {
      const { phone } = await signUp(server);
      const body = { identity: phone, password: PASSWORD, pid: PID };
      return { scene: 'login', identity: phone, ok: 200, act: (t) => call('POST', `${A}/login`, body, withTicket(t)) };
    },
    async 'password login/security'() {
      const { phone } = await signUp(server);
      const body = { identity: phone, password: PASSWORD, pid: PID };
      return {
        scene: 'login',
        identity: phone,
        ok: 200,
        act: (t) => call('POST', `${A}/login/security`, body, withTicket(t)),
      };
    },
    async 'third-party account creation'() {
      const body = { oauth_ticket: await oauthTicket() };
      return {
        scene: 'oauth',
        identity: '',
        ok: 200,
        act: (t) => call('POST', `${A}/oauth/third-party`, body, withTicket(t)),
      };
    },
  };
  const ACTION_NAMES = Object.keys(ACTIONS);

  const prepare = async (name: string, policy: CaptchaPolicy) => {
    await usePolicy(server, 'never');
    const prepared = await (ACTIONS[name] as () => Promise<Prepared>)();
    await usePolicy(server, policy);
    return prepared;
  };

  /** What the rule service hands out when no challenge is due: proves the binding, not a human. */
  const defaultTicket = async (scene: string, identity: string) => {
    const answer = await call<{ rule: string; ticket: string }>('POST', '/captcha/rule/v3', {
      scene,
      identity,
      pid: PID,
    });
    expect(answer.body.rule).toBe('DEFAULT');
    return answer.body.ticket;
  };

  const expectOk = (answer: Answer, prepared: Prepared) =>
    expect(answer.status, JSON.stringify(answer.body)).toBe(prepared.ok);
  return { server, call, ACTION_NAMES, prepare, defaultTicket, expectOk };
};

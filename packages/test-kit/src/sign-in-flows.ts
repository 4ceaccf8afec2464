/**
 * A first-party product's whole OpenID Connect sign-in as its browser and back end make it, step by
 * step, by plain HTTP (no test runner, no relying-party library): authorize → interaction → sign-in
 * (password, card or SMS code) → resume → token → userinfo, the sign-in completing the interaction
 * itself as the web client asks it to (a complete step only where it did not); and the back end's
 * refresh. The statement-count test (oidc/statements-per-sign-in.test.ts) counts the database's work
 * between the steps, and bench/district times them under load.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AuthError } from '@edupass/account';
import { busySeconds, retryWhileBusy } from '@edupass/account/busy';
import { CoreCode, IDENTITY_BASE, INTERACTION_PARAM, routes } from '@edupass/protocol';
import { cookieBrowser } from './cookie-browser.ts';

export const SIGN_IN_STEPS = [
  'authorize',
  'interaction',
  'sign-in',
  'complete',
  'resume',
  'token',
  'userinfo',
] as const;
export type SignInStep = (typeof SIGN_IN_STEPS)[number];

/** The application (confidential, first-party) whose sign-in is made. */
export interface FlowApp {
  clientId: string;
  secret: string;
  callback: string;
}

/** How the person signs in on the web client's screen (by SMS: the code is read from the dev outbox). */
export type Credentials =
  | { password: { identity: string; password: string; pid: string } }
  | { badge: string }
  | { sms: { phone: string; pid: string } };

/** Called after each step (answered as expected) with its name and its time in ms. */
export type StepHook = (step: SignInStep, ms: number) => void | Promise<void>;

export interface AppTokens {
  access_token: string;
  refresh_token?: string;
  id_token: string;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

const expectStatus = async (response: Response, expected: number, what: string) => {
  if (response.status === expected) return response;
  throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
};

const basicAuth = (app: FlowApp) =>
  `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.secret)}`).toString('base64')}`;

const tokenRequest = async (server: string, app: FlowApp, form: Record<string, string>) => {
  const response = await fetch(`${server}/oidc/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(app), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  await expectStatus(response, 200, `token (${form.grant_type})`);
  return (await response.json()) as AppTokens;
};

/**
 * `send` as the web client sends a sign-in: through @edupass/account/busy's `retryWhileBusy`, so while
 * the server answers 503 (its queue of password checks is full) it is asked again after the wait the
 * server gives, spread as the client spreads it, up to `tries` tries (the client's 5 by default);
 * `onBusy` is told of each 503 asked again after. Answers the last response, a 503 once the tries are spent.
 */
export const askWhileBusy = async (
  send: () => Promise<Response>,
  onBusy: () => void = () => {},
  tries?: number,
): Promise<Response> => {
  let busy: Response | undefined;
  try {
    return await retryWhileBusy(
      async () => {
        const response = await send();
        if (response.status !== 503) return response;
        busy = response;
        const body: unknown = await response
          .clone()
          .json()
          .catch(() => undefined);
        throw new AuthError(CoreCode.SERVICE_UNAVAILABLE, 'busy', { status: 503, body });
      },
      (waiting) => {
        if (waiting) onBusy();
      },
      tries === undefined ? {} : { tries },
    );
  } catch (error) {
    if (busy !== undefined && busySeconds(error) !== undefined) return busy;
    throw error;
  }
};

const postJson = async (
  server: string,
  path: string,
  body: unknown,
  expected = 200,
  onBusy?: () => void,
  headers: Record<string, string> = {},
) =>
  expectStatus(
    await askWhileBusy(
      () =>
        fetch(`${server}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'auth-version': '2', ...headers },
          body: JSON.stringify(body),
        }),
      onBusy,
    ),
    expected,
    path,
  );

/** The code the development outbox holds for `phone` (the SMS stand-in of `NODE_ENV=development`). */
const smsCode = async (server: string, phone: string) => {
  const sent = (await (await fetch(`${server}/dev/outbox?to=${phone}`)).json()) as { code: string }[];
  const code = sent.find((row) => row.code !== '')?.code;
  if (code === undefined) throw new Error(`no code in the outbox for ${phone}`);
  return code;
};

/** The sign-in call's session token, and where the browser goes on to when the call completed the interaction. */
interface SignedIn {
  token: string;
  redirectTo: string | undefined;
}

/**
 * The sign-in call as the web client makes it: naming the interaction the browser waits on (its cookie
 * with it), as the web client does for a first-party product; completed with the sign-in, the browser
 * goes straight on to `redirect_to`.
 */
const signInCall = async (
  server: string,
  credentials: Credentials,
  interaction: { uid: string; cookie: string },
  onBusy?: () => void,
): Promise<SignedIn> => {
  const named = { interaction: interaction.uid };
  const cookie = { cookie: interaction.cookie };
  let answer: Response;
  if ('badge' in credentials) {
    const body = { badge: credentials.badge, ...named };
    answer = await postJson(server, routes.signInByBadge.path, body, 200, onBusy, cookie);
  } else if ('password' in credentials) {
    const body = { ...credentials.password, ...named };
    answer = await postJson(server, routes.loginByPassword.path, body, 200, onBusy, cookie);
  } else {
    const { phone, pid } = credentials.sms;
    await postJson(server, routes.sendLoginCode.path, { phone_number: phone, pid }, 204);
    const body = { phone_number: phone, captcha: await smsCode(server, phone), pid, ...named };
    answer = await postJson(server, routes.loginByPhone.path, body, 200, onBusy, cookie);
  }
  const signedIn = (await answer.json()) as { auth: { token: { access: { token: string } } }; redirect_to?: string };
  return { token: signedIn.auth.token.access.token, redirectTo: signedIn.redirect_to };
};

/**
 * One sign-in at `app` on the server at `server`, from a fresh browser: answers the application's
 * tokens (after userinfo answered). `onStep` runs after each step (the database's counters, a timer);
 * `onBusy` after each 503 the sign-in call was answered and asked again for, as the web client does.
 */
export const signInAtProduct = async (
  server: string,
  app: FlowApp,
  credentials: Credentials,
  onStep: StepHook = () => {},
  onBusy?: () => void,
): Promise<AppTokens> => {
  const browser = cookieBrowser();
  let started = performance.now();
  const done = async (step: SignInStep) => {
    await onStep(step, performance.now() - started);
    started = performance.now();
  };

  const verifier = base64url(randomBytes(32));
  const authorizeUrl = new URL(`${server}/oidc/auth`);
  for (const [name, value] of Object.entries({
    client_id: app.clientId,
    redirect_uri: app.callback,
    response_type: 'code',
    scope: 'openid profile',
    state: base64url(randomBytes(12)),
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }))
    authorizeUrl.searchParams.set(name, value);
  const landed = await browser.follow(authorizeUrl.href, (next) => new URL(next).searchParams.has(INTERACTION_PARAM));
  const uid = new URL(landed).searchParams.get(INTERACTION_PARAM);
  await done('authorize');

  const interactionUrl = `${server}${IDENTITY_BASE}/interactions/${uid}`;
  await expectStatus(await fetch(interactionUrl, { headers: { cookie: browser.cookieHeader() } }), 200, 'interaction');
  await done('interaction');

  const signedIn = await signInCall(server, credentials, { uid: String(uid), cookie: browser.cookieHeader() }, onBusy);
  await done('sign-in');

  let redirectTo = signedIn.redirectTo;
  if (redirectTo === undefined) {
    const completed = await fetch(`${interactionUrl}/complete`, {
      method: 'POST',
      headers: {
        cookie: browser.cookieHeader(),
        authorization: `Bearer ${signedIn.token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    await expectStatus(completed, 200, 'complete');
    redirectTo = ((await completed.json()) as { redirect_to: string }).redirect_to;
    await done('complete');
  }

  const back = await browser.follow(redirectTo, (next) => next.startsWith(app.callback));
  const code = new URL(back).searchParams.get('code');
  if (code === null) throw new Error(`the application's callback got no code: ${back}`);
  await done('resume');

  const tokens = await tokenRequest(server, app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.callback,
    code_verifier: verifier,
  });
  await done('token');

  const userinfo = await fetch(`${server}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  await expectStatus(userinfo, 200, 'userinfo');
  await userinfo.arrayBuffer();
  await done('userinfo');
  return tokens;
};

/** The application's back end refreshes its tokens (rotation: answers the new set). */
export const refreshAtProduct = async (server: string, app: FlowApp, refreshToken: string): Promise<AppTokens> =>
  tokenRequest(server, app, { grant_type: 'refresh_token', refresh_token: refreshToken });

/**
 * WeChat and QQ: starting a sign-in (state cookie + provider URL), the code steps (sign-in, bind,
 * step-up),
 * the oauth_ticket steps (code to a phone, bind-or-create, check) and unbinding. The state check
 * happens here, where the cookie is; the rules are in services/oauth*.ts.
 */
import { ACCOUNTS_BASE, routes } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { allowedRedirect, isNavigation, wantsJson } from '../http/browser-request.ts';
import { parseFields } from '../http/parse-fields.ts';
import { defineRoute, objectSchema, type RouteInput, responseSchemas } from '../http/route-kit.ts';
import { answerSignInFor, signInRequest } from '../http/sign-in-answer.ts';
import { noticeAccountChange } from '../services/account/notices.ts';
import {
  isOauthProvider,
  OAUTH_PROVIDERS,
  type OauthProviderName,
  oauthProvider,
} from '../services/oauth/providers.ts';
import { bindOauth, loginWithOauth, unbindOauth } from '../services/oauth/sign-in-and-bind.ts';
import { checkOauthBind, createOauthUser, sendOauthBindCode } from '../services/oauth/sign-up.ts';
import { checkState, STATE_TTL_SECONDS, startState, stateCookieName } from '../services/oauth/state.ts';
import { acceptsCodeWithoutState } from '../services/oauth/without-state.ts';
import { requireStepUp, stepUpByOauth } from '../services/sign-in/step-up.ts';

const STATE_COOKIE_PATH = `${ACCOUNTS_BASE}/oauth`;

/**
 * Where a browser goes when the sign-in cannot start: the web client's WeChat / QQ screen at PUBLIC_URL
 * with what went wrong (`wrong-site`: started from a host name that is not this site's; `unavailable`:
 * anything else), rather than a page of raw JSON. Programs still get the catalogue error.
 */
const startFailedPage = (ctx: Context, name: OauthProviderName, error: 'wrong-site' | 'unavailable'): string => {
  const page = new URL('/', ctx.config.publicUrl);
  page.searchParams.set('oauth', name);
  page.searchParams.set('error', error);
  return page.toString();
};

/**
 * GET oauth/{wechat|qq}/authorize?redirect=…: a fresh state, signed into an HttpOnly cookie with the
 * redirect URI; then the provider's page (302), or `{url, state}` for JSON callers.
 */
const registerAuthorize = (app: FastifyInstance, ctx: Context, name: OauthProviderName) => {
  const spec = name === 'wechat' ? routes.authorizeWechat : routes.authorizeQQ;
  app.get(
    spec.path,
    {
      schema: {
        operationId: name === 'wechat' ? 'authorizeWechat' : 'authorizeQQ',
        summary: spec.summary,
        tags: [spec.host],
        querystring: objectSchema(spec.query),
        response: {
          ...responseSchemas(spec),
          302: { type: 'null', description: "To the provider's sign-in page (browsers)" },
        },
      },
    },
    async (request, reply) => {
      const browser = isNavigation(request) && !wantsJson(request);
      let step: 'wrong-site' | 'unavailable' = 'unavailable';
      let redirectUri: string;
      let provider: ReturnType<typeof oauthProvider>;
      try {
        const { redirect } = parseFields(spec.query, request.query, { fromQueryString: true }) as { redirect: string };
        step = 'wrong-site';
        redirectUri = allowedRedirect(ctx, redirect);
        step = 'unavailable';
        provider = oauthProvider(ctx, name);
      } catch (error) {
        if (!browser) throw error;
        return reply.redirect(startFailedPage(ctx, name, step), 302);
      }
      const { state, cookie } = startState(ctx, name, redirectUri);
      reply.setCookie(stateCookieName(name), cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.config.cookieSecure,
        path: STATE_COOKIE_PATH,
        maxAge: STATE_TTL_SECONDS,
      });
      const url = provider.authorizeUrl({ redirectUri, state });
      return wantsJson(request) ? reply.send({ url, state }) : reply.redirect(url, 302);
    },
  );
};

interface CodeStep {
  state?: string | undefined;
  /** QQ only: the page the product's own front end sent the provider back to (code steps without state). */
  redirect_uri?: string | undefined;
}

/**
 * The redirect URI the code was issued to: that of the sign-in this browser started, once the state it
 * brings matches. A step without state is accepted only for a product that allows it (its own front end
 * ran the provider redirect; oauth-without-state.ts); the redirect URI is then the one it names, or
 * PUBLIC_URL. A state that is sent is always checked.
 */
const codeRedirect = async (
  ctx: Context,
  name: OauthProviderName,
  request: FastifyRequest,
  step: CodeStep,
  pid: string | undefined,
): Promise<string> => {
  if (step.state === undefined && (await acceptsCodeWithoutState(ctx, pid))) {
    return step.redirect_uri === undefined
      ? new URL('/', ctx.config.publicUrl).toString()
      : allowedRedirect(ctx, step.redirect_uri);
  }
  return checkState(ctx, name, request.cookies?.[stateCookieName(name)], step.state);
};

const clearState = (reply: FastifyReply, name: OauthProviderName) =>
  reply.clearCookie(stateCookieName(name), { path: STATE_COOKIE_PATH });

type CodeRoute = 'loginByWechat' | 'loginByQQ';

const login = (ctx: Context, name: OauthProviderName) => async (input: RouteInput<CodeRoute>) => {
  const { body, request, reply } = input;
  const redirectUri = await codeRedirect(ctx, name, request, body, body.pid);
  const outcome = await loginWithOauth(ctx, name, { ...body, redirectUri }, signInRequest(input));
  clearState(reply, name);
  return 'signedIn' in outcome ? answerSignInFor(ctx, input, outcome.signedIn) : outcome.pending;
};

const bind =
  (ctx: Context, name: OauthProviderName) =>
  async ({ body, session, request, reply, client }: RouteInput<'bindWechat' | 'bindQQ'>) => {
    await requireStepUp(ctx, session, `bind ${name}`, client.ip);
    const redirectUri = await codeRedirect(ctx, name, request, body, session.user.pid);
    await bindOauth(ctx, session.userId, name, { code: body.code, redirectUri });
    clearState(reply, name);
  };

const unbind =
  (ctx: Context, name: OauthProviderName) =>
  async ({ session, client }: RouteInput<'unbindWechat' | 'unbindQQ'>) => {
    await requireStepUp(ctx, session, `unbind ${name}`, client.ip);
    const before = await unbindOauth(ctx, session.userId, name);
    if (before) await noticeAccountChange(ctx, before, 'oauth_unbound');
  };

/** Step-up by a round trip to the linked WeChat or QQ: the state must be this browser's, as for a bind. */
const stepUpByProvider =
  (ctx: Context) =>
  async ({ body, session, request, reply, client }: RouteInput<'stepUpByOauth'>) => {
    const name = isOauthProvider(body.provider) ? body.provider : fail('AC3_19');
    const redirectUri = checkState(ctx, name, request.cookies?.[stateCookieName(name)], body.state);
    await stepUpByOauth(ctx, session, name, { code: body.code, redirectUri }, client.ip);
    clearState(reply, name);
  };

export const oauthRoutes = (app: FastifyInstance, ctx: Context) => {
  for (const name of OAUTH_PROVIDERS) registerAuthorize(app, ctx, name);
  defineRoute(app, ctx, 'loginByWechat', login(ctx, 'wechat'));
  defineRoute(app, ctx, 'loginByQQ', login(ctx, 'qq'));
  defineRoute(app, ctx, 'bindWechat', bind(ctx, 'wechat'));
  defineRoute(app, ctx, 'bindQQ', bind(ctx, 'qq'));
  defineRoute(app, ctx, 'unbindWechat', unbind(ctx, 'wechat'));
  defineRoute(app, ctx, 'unbindQQ', unbind(ctx, 'qq'));
  defineRoute(app, ctx, 'stepUpByOauth', stepUpByProvider(ctx));
  defineRoute(app, ctx, 'sendOauthBindCode', ({ body, client, captchaTicket }) =>
    sendOauthBindCode(ctx, {
      phone: body.phone_number,
      oauthTicket: body.oauth_ticket,
      pid: body.pid,
      ip: client.ip,
      captchaTicket,
    }),
  );
  defineRoute(app, ctx, 'checkOauthBind', ({ query }) => checkOauthBind(ctx, query.oauth_ticket));
  defineRoute(app, ctx, 'createOauthUser', async (input) =>
    answerSignInFor(
      ctx,
      input,
      await createOauthUser(ctx, input.body, { ...signInRequest(input), captchaTicket: input.captchaTicket }),
    ),
  );
};

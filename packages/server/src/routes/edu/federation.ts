/**
 * Signing in with a school's own system (CAS, SAML through a federation, or an OAuth2 / OIDC
 * education platform): the chooser's list, the start (a state cookie bound to this browser, then the
 * school's CAS login page, its identity provider or its platform's authorization page), the return
 * with the service ticket, the code or the posted SAML response, the SAML service provider's
 * metadata, the CAS server's and the SAML identity provider's single logout and the platforms'
 * back-channel logout. A browser whose sign-in fails is sent to the web client's sign-in page with
 * what went wrong (`?school=<code>&error=…`), never to a page of JSON.
 *
 * Each step goes through the connector's kind (services/edu/federation/connector.ts): this file knows
 * which route each kind comes back or posts its logouts to, never how its protocol works.
 */
import { parse as parseQuery } from 'node:querystring';
import { routes } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { ApiError, fail, RetryLater } from '../../errors.ts';
import { allowedRedirect, isNavigation, wantsJson } from '../../http/browser-request.ts';
import { presentedCredential } from '../../http/origin-check.ts';
import { parseFields } from '../../http/parse-fields.ts';
import { clientInfo, setAuthCookie, wantsTokenSet } from '../../http/request-info.ts';
import { defineRoute, objectSchema, responseSchemas } from '../../http/route-kit.ts';
import { onwardFromReturn } from '../../http/sign-in-answer.ts';
import type {
  LogoutRoute,
  PostedLogoutFields,
  ReturnRoute,
  SharedLogout,
} from '../../services/edu/federation/connector.ts';
import { connectorFor, connectorReturningTo } from '../../services/edu/federation/connector-kinds.ts';
import { activeConnector, schoolChoices } from '../../services/edu/federation/connectors.ts';
import { type SchoolSignIn, signInWithSchool } from '../../services/edu/federation/sign-in.ts';
import { schoolSignOutUrl } from '../../services/edu/federation/sign-out.ts';
import { checkSchoolState, STATE_TTL_SECONDS, startState } from '../../services/oauth/state.ts';
import { authenticate } from '../../services/sessions/tokens.ts';

const STATE_COOKIE = 'edupass_school';
const STATE_COOKIE_PATH = '/edu/school-sign-in';

/** The web client's sign-in page, saying which school sign-in failed and how. */
const failedPage = (ctx: Context, code: string, error: 'unavailable' | 'refused' | 'expired') => {
  const page = new URL('/', ctx.config.publicUrl);
  page.searchParams.set('school', code);
  page.searchParams.set('error', error);
  return page.toString();
};

const browserError = (error: unknown): 'unavailable' | 'refused' | 'expired' =>
  error instanceof ApiError && error.code === 'AC3_16'
    ? 'expired'
    : error instanceof RetryLater
      ? 'unavailable'
      : 'refused';

const routeSchema = (
  name:
    | 'startSchoolSignIn'
    | 'finishSchoolSignIn'
    | 'finishOidcSignIn'
    | 'finishAppSignIn'
    | 'finishSamlSignIn'
    | 'samlSingleLogout'
    | 'samlSingleLogoutRedirect',
  redirectTo: string,
) => {
  const spec = routes[name];
  return {
    operationId: name,
    summary: spec.summary,
    tags: ['edu'],
    ...('params' in spec ? { params: objectSchema(spec.params), querystring: objectSchema(spec.query) } : {}),
    ...('body' in spec ? { body: objectSchema(spec.body) } : {}),
    response: { ...responseSchemas(spec), 302: { type: 'null', description: redirectTo } },
  };
};

/** Where every kind's return sends the browser (http/sign-in-answer.ts `onwardFromReturn`). */
const RETURNED = 'Back to the site signed in, or on to the product sign-in the return address names';

const codeParam = (request: FastifyRequest) => String((request.params as { code?: unknown }).code ?? '');
const QUERY_STRING = { fromQueryString: true };
const SAML_METADATA = 'application/samlmetadata+xml';

/** Runs a browser step: its failures become the sign-in page with the error; programs get the catalogue error. */
const inBrowser =
  (
    ctx: Context,
    step: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    codeOf: (request: FastifyRequest) => string,
  ) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await step(request, reply);
    } catch (error) {
      if (!isNavigation(request) || wantsJson(request)) throw error;
      return reply.redirect(failedPage(ctx, codeOf(request), browserError(error)), 302);
    }
  };

const start = (ctx: Context) =>
  inBrowser(
    ctx,
    async (request, reply) => {
      const spec = routes.startSchoolSignIn;
      const { code } = parseFields(spec.params, request.params, QUERY_STRING) as { code: string };
      const query = parseFields(spec.query, request.query, QUERY_STRING) as {
        redirect: string;
        link?: string;
      };
      const connector = await activeConnector(ctx, code);
      const kind = connectorFor(connector.kind);
      const redirect = allowedRedirect(ctx, query.redirect);
      // Linking needs the account's own sign-in first; the state carries whose account, signed.
      let use: `school:${string}` = `school:${connector.code}`;
      if (query.link === '1') {
        const token = presentedCredential(ctx, request);
        const session = token === undefined ? fail('E_0') : await authenticate(ctx, token);
        use = `school:${connector.code}:link:${session.userId}`;
      }
      const { state, cookie } = startState(ctx, use, redirect);
      reply.setCookie(STATE_COOKIE, cookie, {
        httpOnly: true,
        // A return posted cross-site (SAML's) does not carry a Lax cookie.
        sameSite: kind.returnsByPost && ctx.config.cookieSecure ? 'none' : 'lax',
        secure: ctx.config.cookieSecure,
        path: STATE_COOKIE_PATH,
        maxAge: STATE_TTL_SECONDS,
      });
      const browser = { userAgent: String(request.headers['user-agent'] ?? '') };
      const page = wantsJson(request) ? undefined : kind.startPage?.(ctx, connector, state, browser);
      if (page)
        return reply.type('text/html; charset=utf-8').header('content-security-policy', page.policy).send(page.html);
      const url = await kind.start(ctx, connector, state, browser);
      return wantsJson(request) ? reply.send({ url }) : reply.redirect(url, 302);
    },
    codeParam,
  );

/**
 * The school's system sends the browser back to `route` (each kind has its own): the fields read, the
 * connector and the state the return names, the state checked against this browser's cookie, then what
 * the return proves read by the connector's kind.
 */
const finish = (ctx: Context, route: ReturnRoute) => {
  const kind = connectorReturningTo(route);
  const spec = routes[route];
  const fieldsOf = (request: FastifyRequest) => ('body' in spec ? request.body : request.query);
  return inBrowser(
    ctx,
    async (request, reply) => {
      const params = 'params' in spec ? parseFields(spec.params, request.params, QUERY_STRING) : {};
      const fields =
        'body' in spec ? parseFields(spec.body, request.body) : parseFields(spec.query, request.query, QUERY_STRING);
      const { code, state } = kind.returnedFor({ params, fields });
      const connector = await activeConnector(ctx, code || '-');
      if (connector.kind !== kind.kind) return fail('E_2');
      const started = takeState(ctx, request, reply, connector.code, state);
      const proved = await kind.finish(ctx, connector, fields, started);
      return signedInReply(ctx, request, reply, { connector, ...proved }, started);
    },
    (request) => kind.returnedFor({ params: request.params, fields: fieldsOf(request) }).code,
  );
};

/** The state cookie checked against the state that came back, and cleared. */
const takeState = (ctx: Context, request: FastifyRequest, reply: FastifyReply, code: string, state: string) => {
  const started = checkSchoolState(ctx, code, request.cookies?.[STATE_COOKIE], state);
  reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
  return started;
};

/**
 * Signs the identity in (linking it when the start asked), sets the cookie and returns to the site, or
 * straight on to the first-party product whose sign-in the return address names (http/sign-in-answer.ts
 * `onwardFromReturn`).
 */
const signedInReply = async (
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Omit<SchoolSignIn, 'linkTo'>,
  started: { use: string; redirect: string },
) => {
  const { use, redirect } = started;
  const linkTo = use.includes(':link:') ? Number(use.slice(use.lastIndexOf(':') + 1)) : undefined;
  const signedIn = await signInWithSchool(
    ctx,
    { ...input, linkTo },
    { ...clientInfo(request, ctx.config), wantsTokenSet: wantsTokenSet(request) },
  );
  setAuthCookie(reply, ctx.config, signedIn.cookie.token, signedIn.cookie.maxAge);
  return reply.redirect(await onwardFromReturn(ctx, { request, reply }, redirect, signedIn.cookie.token), 302);
};

/**
 * A logout sent to SAML's shared address (single logout: the identity provider's LogoutRequest, or its
 * answer to EduPass's own): the browser goes where the kind says, else to the site. A refused one is
 * the catalogue error for programs, the site for a browser.
 */
const sharedLogout =
  (ctx: Context, read: (request: FastifyRequest) => SharedLogout) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    const home = new URL('/', ctx.config.publicUrl).toString();
    try {
      const answer = connectorFor('saml').sharedLogout ?? fail('E_2');
      return reply.redirect((await answer(ctx, read(request))) ?? home, 302);
    } catch (error) {
      if (!isNavigation(request) || wantsJson(request)) throw error;
      return reply.redirect(home, 302);
    }
  };

/** Posted (HTTP-POST binding). */
const postedLogout = (request: FastifyRequest): SharedLogout => ({
  binding: 'post',
  fields: parseFields(routes.samlSingleLogout.body, request.body) as PostedLogoutFields,
});

/** In the address (HTTP-Redirect binding): the signature covers the query as the IdP encoded it, so it is read raw. */
const redirectedLogout = (request: FastifyRequest): SharedLogout => {
  parseFields(routes.samlSingleLogoutRedirect.query, request.query, QUERY_STRING);
  const url = request.raw.url ?? '';
  return { binding: 'redirect', rawQuery: url.includes('?') ? url.slice(url.indexOf('?') + 1) : '' };
};

/** A logout the school's system posts to a connector's own address, when its kind takes logouts there. */
const connectorLogout = async (ctx: Context, route: LogoutRoute, code: string, posted: string, ip: string) => {
  const connector = await activeConnector(ctx, code);
  const logout = connectorFor(connector.kind).singleLogout;
  if (logout?.route !== route) return fail('E_2');
  await logout.end(ctx, connector, posted, ip);
};

/** The SAML service provider's metadata, as the kind publishes it. */
const samlMetadata = async (ctx: Context, reply: FastifyReply) =>
  reply.type(SAML_METADATA).send(await (connectorFor('saml').metadata ?? fail('E_2'))(ctx));

export const schoolSignInRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'schoolChoices', () => schoolChoices(ctx), { tags: ['edu'] });
  const signOutAddress = async (sessionId: string) => ({ url: await schoolSignOutUrl(ctx, sessionId) });
  defineRoute(app, ctx, 'schoolSignOut', ({ session }) => signOutAddress(session.sessionId), { tags: ['edu'] });
  const startSchema = routeSchema('startSchoolSignIn', "To the school's sign-in page");
  app.get(
    routes.startSchoolSignIn.path,
    {
      schema: {
        ...startSchema,
        response: {
          ...startSchema.response,
          200: {
            description: "The address (JSON callers), or EduPass's in-app sign-in page (DingTalk's own browser)",
            content: {
              'application/json': { schema: routes.startSchoolSignIn.answer },
              'text/html': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    start(ctx),
  );
  for (const route of ['finishSchoolSignIn', 'finishOidcSignIn', 'finishAppSignIn'] as const) {
    app.get(routes[route].path, { schema: routeSchema(route, RETURNED) }, finish(ctx, route));
  }
  app.get(
    routes.samlServiceProvider.path,
    {
      schema: {
        operationId: 'samlServiceProvider',
        summary: routes.samlServiceProvider.summary,
        tags: ['edu'],
        response: {
          200: {
            description: 'SAML 2.0 metadata (EntityDescriptor with an SPSSODescriptor)',
            content: { [SAML_METADATA]: { schema: { type: 'string' } } },
          },
        },
      },
    },
    (_request, reply) => samlMetadata(ctx, reply),
  );
  app.get(
    routes.samlSingleLogoutRedirect.path,
    {
      schema: routeSchema('samlSingleLogoutRedirect', "Back to the identity provider's single logout, or to the site"),
    },
    sharedLogout(ctx, redirectedLogout),
  );
  void app.register(async (scope) => {
    // Identity providers post the SAML response as a form (HTTP-POST binding).
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_request, body, done) => done(null, parseQuery(typeof body === 'string' ? body : body.toString('utf8'))),
    );
    scope.post(
      routes.finishSamlSignIn.path,
      { schema: routeSchema('finishSamlSignIn', RETURNED) },
      finish(ctx, 'finishSamlSignIn'),
    );
    scope.post(
      routes.samlSingleLogout.path,
      { schema: routeSchema('samlSingleLogout', "Back to the identity provider's single logout, or to the site") },
      sharedLogout(ctx, postedLogout),
    );
  });
  void app.register(async (scope) => {
    // CAS servers post the single-logout request as a form; OpenID Connect platforms their logout tokens.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, parseQuery(typeof body === 'string' ? body : body.toString('utf8'))),
    );
    defineRoute(
      scope,
      ctx,
      'schoolSingleLogout',
      ({ params, body, client }) =>
        connectorLogout(ctx, 'schoolSingleLogout', params.code, body.logoutRequest, client.ip),
      { tags: ['edu'] },
    );
    defineRoute(
      scope,
      ctx,
      'platformLogout',
      ({ params, body, client }) => connectorLogout(ctx, 'platformLogout', params.code, body.logout_token, client.ip),
      { tags: ['edu'] },
    );
  });
};

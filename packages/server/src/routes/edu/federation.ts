/**
 * Signing in with a school's own system (CAS, SAML through a federation, or an OAuth2 / OIDC
 * education platform): the chooser's list, the start (a state cookie bound to this browser, then the
 * school's CAS login page, its identity provider or its platform's authorization page), the return
 * with the service ticket, the code or the posted SAML response, the SAML service provider's
 * metadata, the CAS server's and the SAML identity provider's single logout and the platforms'
 * back-channel logout. A browser whose
 * sign-in fails is sent to the web client's sign-in page with what went wrong
 * (`?school=<code>&error=…`), never to a page of JSON.
 */
import { parse as parseQuery } from 'node:querystring';
import { routes } from '@edupass/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { ApiError, fail, RetryLater } from '../../errors.ts';
import { presentedCredential } from '../../http/origin-check.ts';
import { parseFields } from '../../http/parse-fields.ts';
import { clientInfo, setAuthCookie, wantsTokenSet } from '../../http/request-info.ts';
import { defineRoute, objectSchema, responseSchemas } from '../../http/route-kit.ts';
import { finishCasSignIn, startCasSignIn } from '../../services/edu/federation/cas/sign-in.ts';
import { casSingleLogout } from '../../services/edu/federation/cas/single-logout.ts';
import { activeConnector, schoolChoices } from '../../services/edu/federation/connectors.ts';
import { platformLogout } from '../../services/edu/federation/oidc/back-channel-logout.ts';
import { finishOidcSignIn, startOidcSignIn } from '../../services/edu/federation/oidc/connector.ts';
import { samlLogout, samlSignOutAnswered } from '../../services/edu/federation/saml/logout.ts';
import {
  finishSamlSignIn,
  serviceProviderMetadataOf,
  startSamlSignIn,
} from '../../services/edu/federation/saml/sign-in.ts';
import { type SchoolSignIn, signInWithSchool } from '../../services/edu/federation/sign-in.ts';
import { schoolSignOutUrl } from '../../services/edu/federation/sign-out.ts';
import { schoolSignOutFailedPage, signedOutPage } from '../../services/edu/federation/upstream-url.ts';
import { checkSchoolState, STATE_TTL_SECONDS, startState } from '../../services/oauth/state.ts';
import { authenticate } from '../../services/sessions/tokens.ts';
import { allowedRedirect, isNavigation, wantsJson } from '../oauth.ts';

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

const codeParam = (request: FastifyRequest) => String((request.params as { code?: unknown }).code ?? '');

/** The SAML RelayState: the connector's code and the state, so the shared endpoint knows the school. */
const relayStateOf = (code: string, state: string) => `${code}.${state}`;
const fromRelayState = (relayState: string) => {
  const dot = relayState.indexOf('.');
  return dot < 0 ? { code: '', state: '' } : { code: relayState.slice(0, dot), state: relayState.slice(dot + 1) };
};

/** Runs a browser step: its failures become the sign-in page with the error; programs get the catalogue error. */
const inBrowser =
  (
    ctx: Context,
    step: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    codeOf: (request: FastifyRequest) => string = codeParam,
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
  inBrowser(ctx, async (request, reply) => {
    const spec = routes.startSchoolSignIn;
    const { code } = parseFields(spec.params, request.params, { fromQueryString: true }) as { code: string };
    const query = parseFields(spec.query, request.query, { fromQueryString: true }) as {
      redirect: string;
      link?: string;
    };
    const connector = await activeConnector(ctx, code);
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
      // A SAML response comes back as a cross-site POST, which a Lax cookie does not go with.
      sameSite: connector.kind === 'saml' && ctx.config.cookieSecure ? 'none' : 'lax',
      secure: ctx.config.cookieSecure,
      path: STATE_COOKIE_PATH,
      maxAge: STATE_TTL_SECONDS,
    });
    const url =
      connector.kind === 'saml'
        ? await startSamlSignIn(ctx, connector, relayStateOf(connector.code, state))
        : connector.kind === 'oidc'
          ? await startOidcSignIn(ctx, connector, state)
          : startCasSignIn(ctx, connector, state);
    return wantsJson(request) ? reply.send({ url }) : reply.redirect(url, 302);
  });

const finish = (ctx: Context) =>
  inBrowser(ctx, async (request, reply) => {
    const spec = routes.finishSchoolSignIn;
    const { code } = parseFields(spec.params, request.params, { fromQueryString: true }) as { code: string };
    const query = parseFields(spec.query, request.query, { fromQueryString: true }) as {
      ticket: string;
      state: string;
    };
    const connector = await activeConnector(ctx, code);
    if (connector.kind !== 'cas') return fail('E_2');
    const started = takeState(ctx, request, reply, connector.code, query.state);
    const identity = await finishCasSignIn(ctx, connector, query);
    return signedInReply(ctx, request, reply, { connector, identity, ticket: query.ticket }, started);
  });

/** The education platform's return: the state checked first, then the code exchanged and the claims read. */
const finishOidc = (ctx: Context) =>
  inBrowser(ctx, async (request, reply) => {
    const spec = routes.finishOidcSignIn;
    const { code } = parseFields(spec.params, request.params, { fromQueryString: true }) as { code: string };
    const query = parseFields(spec.query, request.query, { fromQueryString: true }) as {
      code?: string;
      state: string;
      error?: string;
    };
    const connector = await activeConnector(ctx, code);
    if (connector.kind !== 'oidc') return fail('E_2');
    const started = takeState(ctx, request, reply, connector.code, query.state);
    if (query.code === undefined || query.code === '') {
      ctx.logger.warn({ connector: connector.code, error: query.error }, 'school platform returned no code');
      return fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
    }
    const { identity, upstream } = await finishOidcSignIn(ctx, connector, {
      state: query.state,
      code: query.code,
      startedAt: started.startedAt,
    });
    // The record names the sign-in by an HMAC of its code; the platform's logout tokens by `sid` and `sub`.
    return signedInReply(ctx, request, reply, { connector, identity, ticket: `oidc:${query.code}`, upstream }, started);
  });

/** The state cookie checked against the state that came back, and cleared. */
const takeState = (ctx: Context, request: FastifyRequest, reply: FastifyReply, code: string, state: string) => {
  const started = checkSchoolState(ctx, code, request.cookies?.[STATE_COOKIE], state);
  reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
  return started;
};

/** Signs the identity in (linking it when the start asked), sets the cookie and returns to the site. */
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
  return reply.redirect(redirect, 302);
};

const relayStateCode = (request: FastifyRequest) =>
  fromRelayState(String((request.body as { RelayState?: unknown } | undefined)?.RelayState ?? '')).code;

/** The identity provider's POST: RelayState names the connector and the state this browser holds. */
const finishSaml = (ctx: Context) =>
  inBrowser(
    ctx,
    async (request, reply) => {
      const body = parseFields(routes.finishSamlSignIn.body, request.body) as {
        SAMLResponse: string;
        RelayState: string;
      };
      const { code, state } = fromRelayState(body.RelayState);
      const connector = await activeConnector(ctx, code || '-');
      if (connector.kind !== 'saml') return fail('E_2');
      const started = takeState(ctx, request, reply, connector.code, state);
      const { identity, assertionKey, upstream } = await finishSamlSignIn(
        ctx,
        connector,
        body.SAMLResponse,
        started.startedAt,
      );
      return signedInReply(ctx, request, reply, { connector, identity, ticket: assertionKey, upstream }, started);
    },
    relayStateCode,
  );

/**
 * The identity provider's LogoutRequest, posted by the browser: the sessions it names end, and the
 * browser goes back to the IdP with the signed LogoutResponse (or to the site, when the IdP takes
 * none). A refused request is the catalogue error for programs, the site for a browser.
 */
const samlSingleLogout = (ctx: Context) => async (request: FastifyRequest, reply: FastifyReply) => {
  const home = new URL('/', ctx.config.publicUrl).toString();
  try {
    const body = parseFields(routes.samlSingleLogout.body, request.body) as {
      SAMLRequest?: string;
      SAMLResponse?: string;
      RelayState?: string;
    };
    if ((body.SAMLRequest === undefined) === (body.SAMLResponse === undefined)) {
      fail('E_1', 'Post either SAMLRequest or SAMLResponse.');
    }
    if (body.SAMLResponse !== undefined) {
      // The answer to EduPass's own LogoutRequest: the session here ended before the browser left.
      const signedOut = await samlSignOutAnswered(ctx, body.SAMLResponse);
      return reply.redirect(signedOut ? signedOutPage(ctx) : schoolSignOutFailedPage(ctx), 302);
    }
    const sent = { binding: 'post', samlRequest: body.SAMLRequest ?? '', relayState: body.RelayState } as const;
    return reply.redirect((await samlLogout(ctx, sent)) ?? home, 302);
  } catch (error) {
    if (!isNavigation(request) || wantsJson(request)) throw error;
    return reply.redirect(home, 302);
  }
};

/** The same over HTTP-Redirect: the signature covers the query as the IdP encoded it, so it is read raw. */
const samlSingleLogoutRedirect = (ctx: Context) => async (request: FastifyRequest, reply: FastifyReply) => {
  const home = new URL('/', ctx.config.publicUrl).toString();
  try {
    parseFields(routes.samlSingleLogoutRedirect.query, request.query, { fromQueryString: true });
    const url = request.raw.url ?? '';
    const rawQuery = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return reply.redirect((await samlLogout(ctx, { binding: 'redirect', rawQuery })) ?? home, 302);
  } catch (error) {
    if (!isNavigation(request) || wantsJson(request)) throw error;
    return reply.redirect(home, 302);
  }
};

export const schoolSignInRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'schoolChoices', () => schoolChoices(ctx), { tags: ['edu'] });
  const signOutAddress = async (sessionId: string) => ({ url: await schoolSignOutUrl(ctx, sessionId) });
  defineRoute(app, ctx, 'schoolSignOut', ({ session }) => signOutAddress(session.sessionId), { tags: ['edu'] });
  app.get(
    routes.startSchoolSignIn.path,
    { schema: routeSchema('startSchoolSignIn', "To the school's sign-in page") },
    start(ctx),
  );
  app.get(
    routes.finishSchoolSignIn.path,
    { schema: routeSchema('finishSchoolSignIn', 'Back to the site, signed in') },
    finish(ctx),
  );
  app.get(
    routes.finishOidcSignIn.path,
    { schema: routeSchema('finishOidcSignIn', 'Back to the site, signed in') },
    finishOidc(ctx),
  );
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
            content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (_request, reply) => reply.type('application/samlmetadata+xml').send(await serviceProviderMetadataOf(ctx)),
  );
  app.get(
    routes.samlSingleLogoutRedirect.path,
    {
      schema: routeSchema('samlSingleLogoutRedirect', "Back to the identity provider's single logout, or to the site"),
    },
    samlSingleLogoutRedirect(ctx),
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
      { schema: routeSchema('finishSamlSignIn', 'Back to the site, signed in') },
      finishSaml(ctx),
    );
    scope.post(
      routes.samlSingleLogout.path,
      { schema: routeSchema('samlSingleLogout', "Back to the identity provider's single logout, or to the site") },
      samlSingleLogout(ctx),
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
      async ({ params, body, client }) => {
        const connector = await activeConnector(ctx, params.code);
        if (connector.kind !== 'cas') return fail('E_2');
        await casSingleLogout(ctx, connector, body.logoutRequest, client.ip);
      },
      { tags: ['edu'] },
    );
    defineRoute(
      scope,
      ctx,
      'platformLogout',
      async ({ params, body }) => {
        const connector = await activeConnector(ctx, params.code);
        if (connector.kind !== 'oidc') fail('E_2');
        else await platformLogout(ctx, connector, body.logout_token);
      },
      { tags: ['edu'] },
    );
  });
};

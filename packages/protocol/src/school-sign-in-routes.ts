/**
 * Signing in with a school's own system (CAS, SAML through a federation such as CARSI, or an OAuth2 /
 * OpenID Connect education platform): the chooser's list, the start (to the school's sign-in page),
 * the return with the service ticket, the code or the SAML response, the SAML service provider's
 * metadata, the CAS server's and the SAML identity provider's single logout, the OpenID Connect
 * platform's back-channel logout, and signing out at the school's system from here. The
 * start and the return are browser navigations answered with redirects; an operator configures the
 * connectors.
 */
import { list, NO_CONTENT, object, text } from './answer-schema.ts';
import { described } from './described-route.ts';

const code = { type: 'string', required: true, maxLength: 40 } as const;
const BASE = '/edu/school-sign-in';

export const schoolChoiceAnswer = object({ code: text(), name: text(), school_name: text() });
/** JSON callers of the start get the address instead of a redirect. */
export const schoolSignInStartAnswer = object({ url: text() });
/** Where to sign out at the school's system; '' for nowhere. */
export const schoolSignOutAnswer = object({ url: text() });

export const schoolSignInTable = {
  schoolChoices: described(
    { method: 'GET', path: BASE, host: 'tiger', auth: 'none', status: 200 } as const,
    'The schools whose own sign-in systems are offered ("sign in with your school")',
    list(schoolChoiceAnswer),
  ),
  startSchoolSignIn: described(
    {
      method: 'GET',
      path: `${BASE}/:code/start`,
      host: 'tiger',
      auth: 'optional',
      status: 200,
      params: { code },
      query: {
        /**
         * A page of this site to return to. When it names the first-party product's sign-in the browser
         * waits on (`?interaction=<uid>`), the return completes that sign-in and goes straight on to the
         * product, else to this page (without `interaction`).
         */
        redirect: { type: 'string', required: true, maxLength: 2048 },
        /** `1`: link the school identity to the signed-in account rather than sign in as it. */
        link: { type: 'string', required: false, maxLength: 1 },
      },
    } as const,
    "Go to the school's sign-in page (302), or its address for JSON callers",
    schoolSignInStartAnswer,
  ),
  finishSchoolSignIn: described(
    {
      method: 'GET',
      path: `${BASE}/:code/cas`,
      host: 'tiger',
      auth: 'optional',
      status: 200,
      params: { code },
      query: {
        ticket: { type: 'string', required: true, maxLength: 256 },
        state: { type: 'string', required: true, maxLength: 64 },
      },
    } as const,
    "The school's CAS server sends the browser back here with a service ticket: signs in and returns to the site (302)",
    NO_CONTENT,
  ),
  finishOidcSignIn: described(
    {
      method: 'GET',
      path: `${BASE}/:code/oidc`,
      host: 'tiger',
      auth: 'optional',
      status: 200,
      params: { code },
      query: {
        /** Absent when the platform answers with `error` (the person declined, or it refused). */
        code: { type: 'string', required: false, maxLength: 2048 },
        state: { type: 'string', required: true, maxLength: 64 },
        error: { type: 'string', required: false, maxLength: 128 },
      },
    } as const,
    "The school's OAuth2 / OpenID Connect platform sends the browser back here with a code: signs in and returns to the site (302)",
    NO_CONTENT,
  ),
  finishAppSignIn: described(
    {
      method: 'GET',
      path: `${BASE}/:code/app`,
      host: 'tiger',
      auth: 'optional',
      status: 200,
      params: { code },
      query: {
        /** WeCom's code (QR login and in-app OAuth); DingTalk's QR login's code. */
        code: { type: 'string', required: false, maxLength: 512 },
        /** DingTalk's QR login names the same code `authCode`. */
        authCode: { type: 'string', required: false, maxLength: 512 },
        /** DingTalk's in-app free-login code, which EduPass's own page got from the app's JSAPI. */
        auth_code: { type: 'string', required: false, maxLength: 512 },
        state: { type: 'string', required: true, maxLength: 64 },
        error: { type: 'string', required: false, maxLength: 128 },
      },
    } as const,
    "The school's WeCom or DingTalk sends the browser back here with a code (QR-code login, or inside the app): signs in and returns to the site (302)",
    NO_CONTENT,
  ),
  samlServiceProvider: described(
    { method: 'GET', path: `${BASE}/saml/metadata`, host: 'tiger', auth: 'none', status: 200 } as const,
    "EduPass's SAML 2.0 service provider metadata (XML), as a federation registers it",
    NO_CONTENT,
  ),
  finishSamlSignIn: described(
    {
      method: 'POST',
      path: `${BASE}/saml/acs`,
      host: 'tiger',
      auth: 'none',
      status: 200,
      body: {
        SAMLResponse: { type: 'string', required: true, maxLength: 350_000, multiline: true },
        /** `<connector code>.<state>`, as the start sent it. */
        RelayState: { type: 'string', required: true, maxLength: 80 },
      },
    } as const,
    "The institution's identity provider posts its SAML response here (HTTP-POST binding): signs in and returns to the site (302)",
    NO_CONTENT,
  ),
  samlSingleLogout: described(
    {
      method: 'POST',
      path: `${BASE}/saml/slo`,
      host: 'tiger',
      auth: 'none',
      status: 200,
      body: {
        /** The IdP's own LogoutRequest; or (`SAMLResponse`) its answer to EduPass's. One of the two. */
        SAMLRequest: { type: 'string', required: false, maxLength: 65_536, multiline: true },
        SAMLResponse: { type: 'string', required: false, maxLength: 65_536, multiline: true },
        RelayState: { type: 'string', required: false, maxLength: 80 },
      },
    } as const,
    "The institution's identity provider posts a signed LogoutRequest here (SAML single logout, HTTP-POST binding): ends the sessions its sign-ins started and sends the browser back with a signed LogoutResponse (302). Or it posts its LogoutResponse to EduPass's own LogoutRequest: the browser goes on to the sign-in screen (302)",
    NO_CONTENT,
  ),
  samlSingleLogoutRedirect: described(
    {
      method: 'GET',
      path: `${BASE}/saml/slo`,
      host: 'tiger',
      auth: 'none',
      status: 200,
      query: {
        SAMLRequest: { type: 'string', required: true, maxLength: 16_384 },
        RelayState: { type: 'string', required: false, maxLength: 80 },
        SigAlg: { type: 'string', required: false, maxLength: 256 },
        Signature: { type: 'string', required: false, maxLength: 2048 },
      },
    } as const,
    "The institution's identity provider sends a LogoutRequest here in the address, signed over the query (SAML single logout, HTTP-Redirect binding): as the POST, an unsigned one refused",
    NO_CONTENT,
  ),
  schoolSignOut: described(
    { method: 'POST', path: `${BASE}/sign-out`, host: 'tiger', auth: 'token', status: 200 } as const,
    "Where the browser goes after signing out, to sign out at the school's system too (its CAS logout, its OpenID Connect end-session endpoint, its SAML single logout with a signed LogoutRequest), coming back to the sign-in screen; '' when the session did not come from a school system that signs out there. Ask before the logout: it reads the session",
    schoolSignOutAnswer,
  ),
  schoolSingleLogout: described(
    {
      method: 'POST',
      path: `${BASE}/:code/cas`,
      host: 'tiger',
      auth: 'none',
      status: 204,
      params: { code },
      body: { logoutRequest: { type: 'string', required: true, maxLength: 16_384, multiline: true } },
    } as const,
    "The school's CAS server ends the session a service ticket started (single logout, form-encoded)",
    NO_CONTENT,
  ),
  platformLogout: described(
    {
      method: 'POST',
      path: `${BASE}/:code/oidc/logout`,
      host: 'tiger',
      auth: 'none',
      status: 204,
      params: { code },
      body: { logout_token: { type: 'string', required: true, maxLength: 16_384 } },
    } as const,
    "The school's OpenID Connect platform ends the sessions its sign-in started (Back-Channel Logout 1.0: a signed logout token, form-encoded)",
    NO_CONTENT,
  ),
} as const;

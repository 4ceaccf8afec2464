/**
 * Sign-in for the platform's other products: the OpenID Connect provider's interaction (the web
 * client shows it, then completes it), the return to an application after sign-in without OpenID
 * Connect, and the registered applications (operators only; spread into `adminRoutes`). Each web
 * route is its own export so a bundle keeps only the routes it calls.
 */
import type { FieldSpec, Method, RouteSpec } from './routes.ts';

/* @__NO_SIDE_EFFECTS__ */
const str = (maxLength: number) => ({ type: 'string', required: true, maxLength }) as const;
/* @__NO_SIDE_EFFECTS__ */
const optional = <F extends FieldSpec>(field: F) => ({ ...field, required: false }) as const;

export const IDENTITY_BASE = '/tiger/v3/web/identity';
/** Where the provider is mounted; its issuer is PUBLIC_URL followed by this. */
export const OIDC_PREFIX = '/oidc';
/** The query parameter of the sign-in screen naming the provider's interaction. */
export const INTERACTION_PARAM = 'interaction';
/** The query parameter of the sign-in screens naming where to go back after sign-in. */
export const RETURN_PARAM = 'redirect';

const uid = { uid: str(64) } as const;

export const interactionRoute = {
  method: 'GET',
  path: `${IDENTITY_BASE}/interactions/:uid`,
  host: 'tiger',
  auth: 'optional',
  params: uid,
  status: 200,
} as const satisfies Omit<RouteSpec, 'summary'>;

export const completeInteractionRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/interactions/:uid/complete`,
  host: 'tiger',
  auth: 'token',
  params: uid,
  body: { consent: optional({ type: 'boolean' }) },
  status: 200,
} as const satisfies Omit<RouteSpec, 'summary'>;

export const denyInteractionRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/interactions/:uid/deny`,
  host: 'tiger',
  auth: 'none',
  params: uid,
  status: 200,
} as const satisfies Omit<RouteSpec, 'summary'>;

export const checkReturnRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/return`,
  host: 'tiger',
  auth: 'none',
  body: { redirect: str(2048) },
  status: 200,
} as const satisfies Omit<RouteSpec, 'summary'>;

/** The application a user signs in to, as the sign-in and consent screens show it. */
export interface InteractionApp {
  client_id: string;
  name: string;
  logo_url: string;
  first_party: boolean;
}

export interface InteractionDetails {
  app: InteractionApp;
  /** Claims the application asks for (the consent screen lists them). */
  claims: string[];
  /** Whether the application demands a sign-in newer than the current session (prompt=login, max_age). */
  fresh_sign_in: boolean;
  /** Whether the user must approve what the application asks for (third-party applications). */
  consent: boolean;
}

export interface InteractionOutcome {
  /** Where the browser goes next: back into the provider, which answers the application. */
  redirect_to: string;
}

export interface ReturnCheck {
  redirect: string;
  /** The registered application the address belongs to, when one does. */
  app_name: string;
}

/* @__NO_SIDE_EFFECTS__ */
const operator = <const E extends Partial<RouteSpec>>(method: Method, path: string, summary: string, extra: E) =>
  ({ method, path: `/admin/${path}`, host: 'tiger', auth: 'operator', summary, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: 'operator'; summary: string; status: 200 },
    keyof E
  > &
    E;

const urls = { type: 'string[]', required: true, maxLength: 20 } as const;
const clientIdParam = { client_id: str(64) } as const;

export const applicationRoutes = {
  listApplications: operator('GET', 'applications', 'Registered applications (never their secrets)', {}),
  addApplication: operator('POST', 'applications', 'Register an application; a confidential one gets its secret once', {
    body: {
      name: str(64),
      logo_url: optional(str(2048)),
      redirect_uris: urls,
      post_logout_redirect_uris: optional(urls),
      first_party: { type: 'boolean', required: true },
      confidential: { type: 'boolean', required: true },
    },
  }),
  rotateApplicationSecret: operator(
    'POST',
    'applications/:client_id/secret',
    "Replace a confidential application's secret; the new one is shown once",
    { params: clientIdParam },
  ),
  removeApplication: operator('POST', 'applications/:client_id/remove', 'Remove an application and its grants', {
    params: clientIdParam,
    status: 204,
  }),
} as const satisfies Record<string, RouteSpec>;

export interface Application {
  client_id: string;
  name: string;
  logo_url: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  first_party: boolean;
  /** Confidential: authenticates with a secret. Public: PKCE only. */
  confidential: boolean;
  created_at: number;
}

export interface ApplicationWithSecret {
  application: Application;
  /** Shown once: only its hash is kept. Absent for public applications. */
  client_secret?: string;
}

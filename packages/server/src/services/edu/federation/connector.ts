/**
 * One interface for every kind of school sign-in system: the routes and the sign-out call a kind
 * through it (`connectorFor(kind)`, connector-kinds.ts) and never name its protocol. Each kind lives in
 * its own folder (`cas/`, `saml/`, `oidc/`) and exports one implementation from its `connector.ts`.
 *
 * What differs between the kinds, and so is here: where the browser comes back (CAS and OAuth2 to the
 * connector's own address with `state`; SAML to one address for every school, posted cross-site, with
 * the connector and the state in its RelayState), what the return carries (a service ticket, a code, a
 * signed response), how the school's system signs the person out, and the logouts it sends.
 */
import type { RouteName } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import type { Connector } from './connectors.ts';
import type { SchoolSignIn } from './sign-in.ts';
import type { SignOutThere } from './sign-out.ts';

/** The routes a school's system sends the browser back to (one per kind). */
export type ReturnRoute = Extract<
  RouteName,
  'finishSchoolSignIn' | 'finishOidcSignIn' | 'finishSamlSignIn' | 'finishAppSignIn'
>;

/** The routes a school's system posts a logout to, at a connector's own address. */
export type LogoutRoute = Extract<RouteName, 'schoolSingleLogout' | 'platformLogout'>;

/** What the start knows of the browser. */
export interface BrowserOf {
  userAgent: string;
}

/** A return as it came: the address's parameters, and the query's or the posted form's fields. */
export interface Returned {
  params: unknown;
  fields: unknown;
}

/** What the school's system proved on a return: the identity, and how its logouts will name the sign-in. */
export type SchoolReturn = Pick<SchoolSignIn, 'identity' | 'ticket' | 'upstream'>;

/** A posted single-logout form: the identity provider's LogoutRequest, or its answer to EduPass's. */
export interface PostedLogoutFields {
  SAMLRequest?: string;
  SAMLResponse?: string;
  RelayState?: string;
}

/** A logout sent to a kind's shared address: posted as a form, or in a redirect's query (read raw). */
export type SharedLogout = { binding: 'post'; fields: PostedLogoutFields } | { binding: 'redirect'; rawQuery: string };

export interface SchoolConnector<C extends Connector = Connector> {
  readonly kind: C['kind'];
  /** The route the school's system sends the browser back to. */
  readonly returnRoute: ReturnRoute;
  /**
   * The school's system sends the browser back with a cross-site POST (SAML's HTTP-POST binding), which
   * a SameSite=Lax state cookie does not go with.
   */
  readonly returnsByPost: boolean;
  /**
   * Which connector (its code) and which state a return names, '' for what it does not name. Read as
   * the return came, before the connector is known (SAML's one address serves every school), and for
   * the failure page even when the fields are wrong.
   */
  returnedFor(returned: Returned): { code: string; state: string };
  /**
   * Where the browser goes to sign in at the school's system, coming back with `state` (`browser`: a
   * kind that signs in differently inside an app's own browser reads its User-Agent).
   */
  start(ctx: Context, connector: C, state: string, browser?: BrowserOf): Promise<string>;
  /**
   * A page of EduPass's own to answer the start with instead of a redirect (DingTalk's in-app sign-in
   * asks the app's JSAPI for its code), with its content security policy; undefined for the redirect.
   */
  startPage?(
    ctx: Context,
    connector: C,
    state: string,
    browser: BrowserOf,
  ): { html: string; policy: string } | undefined;
  /**
   * What the return proves, its fields checked against its route and its state against this browser's
   * (a sign-in started at `startedAt`, unix ms): AC3_27 when the school's system does not vouch for it,
   * 503 when the system does not answer.
   */
  finish(
    ctx: Context,
    connector: C,
    fields: Record<string, unknown>,
    started: { startedAt: number },
  ): Promise<SchoolReturn>;
  /**
   * Where the browser goes to sign out at the school's system too, coming back to `back`, with what the
   * sign-in kept for it; undefined when the system has no sign-out (or the sign-in kept nothing).
   */
  signOutUrl(ctx: Context, connector: C, there: SignOutThere | undefined, back: string): Promise<string | undefined>;
  /**
   * A logout the school's system posts to the connector's own address (CAS single logout's
   * LogoutRequest, OpenID Connect back-channel logout's token), from `ip`: the sessions it names end.
   */
  readonly singleLogout?: {
    readonly route: LogoutRoute;
    end(ctx: Context, connector: C, posted: string, ip: string): Promise<unknown>;
  };
  /**
   * A logout sent to the kind's one shared address, naming its sender inside (SAML single logout): where
   * the browser goes next, undefined for the site.
   */
  sharedLogout?(ctx: Context, sent: SharedLogout): Promise<string | undefined>;
  /** The document the school's side registers EduPass by (SAML: the service provider's metadata, XML). */
  metadata?(ctx: Context): Promise<string>;
}

/** A field of a return as it came (parsed or not), as text: '' when absent. */
export const fieldText = (fields: unknown, key: string): string =>
  String((typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>)[key] : undefined) ?? '');

/** A return to the connector's own address: its code in the path, the state in the query. */
export const returnedToConnector = ({ params, fields }: Returned) => ({
  code: fieldText(params, 'code'),
  state: fieldText(fields, 'state'),
});

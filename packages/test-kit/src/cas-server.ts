/**
 * A CAS 3.0 server for tests (node:http), protocol-exact to the CAS Protocol Specification
 * (apereo.github.io/cas/development/protocol/CAS-Protocol-Specification.html): `/cas/login` issues a
 * single-use service ticket for the person the test signs in as and sends the browser back to
 * `service`; `/cas/serviceValidate` (2.0) and `/cas/p3/serviceValidate` (3.0) answer with the
 * specification's sample documents (§2.5.2 success, §2.5.3 failure, §2.5.7 attributes; the
 * proxyGrantingTicket element kept as in the samples); `logout` posts the §2.3.3 LogoutRequest to
 * the service, as the server does at single logout; `/cas/logout` ends the session (§2.3). With `singleSignOn`, a session is open at the
 * server: `/cas/login` answers from it unless `renew` is asked (§2.1.1), and a validation asking for
 * `renew` refuses a ticket issued from the session (§2.5.1).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CasPerson {
  user: string;
  attributes: Record<string, string[]>;
}

interface Issued {
  service: string;
  person: CasPerson;
  used: boolean;
  /** Issued on the person's password (primary credentials), not from a single sign-on session. */
  fromPassword: boolean;
}

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** §2.5.7's sample, with this person's user and attributes. */
const successDocument = (person: CasPerson, withAttributes: boolean) => {
  const attributes = Object.entries(person.attributes)
    .flatMap(([name, values]) => values.map((value) => `        <cas:${name}>${xmlText(value)}</cas:${name}>`))
    .join('\n');
  return `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
    <cas:authenticationSuccess>
      <cas:user>${xmlText(person.user)}</cas:user>${
        withAttributes ? `\n      <cas:attributes>\n${attributes}\n      </cas:attributes>` : ''
      }
      <cas:proxyGrantingTicket>PGTIOU-84678-8a9d...</cas:proxyGrantingTicket>
    </cas:authenticationSuccess>
  </cas:serviceResponse>`;
};

/** §2.5.3's sample. */
const failureDocument = (code: string, ticket: string) => `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
 <cas:authenticationFailure code="${code}">
    Ticket ${xmlText(ticket)} not recognized
  </cas:authenticationFailure>
</cas:serviceResponse>`;

/** §2.3.3's sample. */
export const logoutRequestDocument = (
  ticket: string,
) => `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"
     ID="${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}">
    <saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">
      @NOT_USED@
    </saml:NameID>
    <samlp:SessionIndex>${xmlText(ticket)}</samlp:SessionIndex>
</samlp:LogoutRequest>`;

export interface CasServer {
  /** The CAS prefix: `http://127.0.0.1:<port>/cas`. */
  url: string;
  /** Who the next `/login` signs in (the person typing their password at the school's page). */
  signInAs(person: CasPerson): void;
  /** Every ticket issued, newest last, with the service it was issued for. */
  tickets: { ticket: string; service: string }[];
  /** Validation requests received, as paths with their query. */
  validations: string[];
  /** Login requests received (their query). */
  logins: URLSearchParams[];
  /** Sign-outs at `/cas/logout` (their query): each ends the single sign-on session. */
  logouts: URLSearchParams[];
  /** A CAS session is open in this browser (the last person's): logins without `renew` answer from it. */
  singleSignOn: boolean;
  /** A server that answers from its session even when `renew` is asked (a broken or misconfigured one). */
  ignoresRenew: boolean;
  /** Single logout of the session `ticket` started: posts the LogoutRequest to its service. */
  logout(ticket: string): Promise<number>;
  close(): Promise<void>;
}

export const startCasServer = async (): Promise<CasServer> => {
  const issued = new Map<string, Issued>();
  const tickets: { ticket: string; service: string }[] = [];
  const validations: string[] = [];
  const logins: URLSearchParams[] = [];
  const logouts: URLSearchParams[] = [];
  let next: CasPerson | undefined;
  const state = { singleSignOn: false, ignoresRenew: false };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://cas.test');
    const service = url.searchParams.get('service') ?? '';
    if (url.pathname === '/cas/login') {
      logins.push(url.searchParams);
      if (!next || service === '') return response.writeHead(400).end('no person to sign in, or no service');
      const renew = url.searchParams.get('renew') === 'true';
      const fromPassword = !state.singleSignOn || (renew && !state.ignoresRenew);
      // §3.1: "ST-" and at least 32 characters of random.
      const ticket = `ST-${randomBytes(24).toString('base64url')}`;
      issued.set(ticket, { service, person: next, used: false, fromPassword });
      tickets.push({ ticket, service });
      const back = new URL(service);
      back.searchParams.set('ticket', ticket);
      return response.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/cas/logout') {
      // §2.3: the session ends; §2.3.1: back to `service` (3.0) or `url` (2.0) when given.
      logouts.push(url.searchParams);
      state.singleSignOn = false;
      const back = url.searchParams.get('service') ?? url.searchParams.get('url');
      return back ? response.writeHead(302, { location: back }).end() : response.writeHead(200).end('signed out');
    }
    const p3 = url.pathname === '/cas/p3/serviceValidate';
    if (p3 || url.pathname === '/cas/serviceValidate') {
      validations.push(`${url.pathname}${url.search}`);
      const ticket = url.searchParams.get('ticket') ?? '';
      const found = issued.get(ticket);
      // §3.1.1: a service ticket is valid once; §2.5: for the service it was issued to only.
      const renew = url.searchParams.get('renew') === 'true';
      const problem =
        !found || found.used
          ? 'INVALID_TICKET'
          : found.service !== service
            ? 'INVALID_SERVICE'
            : renew && !found.fromPassword
              ? 'INVALID_TICKET_SPEC'
              : undefined;
      if (found) found.used = true;
      const body =
        problem || !found ? failureDocument(problem ?? 'INVALID_TICKET', ticket) : successDocument(found.person, p3);
      return response.writeHead(200, { 'content-type': 'application/xml;charset=UTF-8' }).end(body);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cas`,
    signInAs(person) {
      next = person;
    },
    tickets,
    validations,
    logins,
    logouts,
    get singleSignOn() {
      return state.singleSignOn;
    },
    set singleSignOn(open) {
      state.singleSignOn = open;
    },
    get ignoresRenew() {
      return state.ignoresRenew;
    },
    set ignoresRenew(ignores) {
      state.ignoresRenew = ignores;
    },
    async logout(ticket) {
      const found = issued.get(ticket) ?? tickets.find((t) => t.ticket === ticket);
      if (!found) throw new Error(`no ticket ${ticket}`);
      const response = await fetch(found.service, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logoutRequest: logoutRequestDocument(ticket) }).toString(),
      });
      return response.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

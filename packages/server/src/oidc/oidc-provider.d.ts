/**
 * The part of oidc-provider 9 (which ships no types) that EduPass uses. Shapes follow its
 * documentation (docs/README.md of the package) and lib/.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: unknown;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientModel {
    clientId: string;
    [metadata: string]: unknown;
  }

  export interface SessionModel {
    uid: string;
    accountId?: string;
    loginTs?: number;
    grantIdFor(clientId: string): string | undefined;
  }

  export interface GrantModel {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    /** The granted OpenID Connect scopes, space-separated. */
    getOIDCScope(): string;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(ttl?: number): Promise<string>;
  }

  export interface PromptDetails {
    name: string;
    reasons: string[];
    details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } & Record<string, unknown>;
  }

  export interface InteractionModel {
    uid: string;
    iat: number;
    exp: number;
    returnTo: string;
    prompt: PromptDetails;
    params: Record<string, unknown> & { client_id?: string; scope?: string };
    session?: { accountId: string; uid?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
    result?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface OidcContext {
    status: number;
    oidc: {
      route?: string;
      client?: ClientModel;
      session?: SessionModel;
      result?: Record<string, unknown>;
      params?: Record<string, unknown>;
      requestParamScopes: Set<string>;
      requestParamClaims: Set<string>;
      provider: Provider;
    };
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: OidcContext) => boolean | Promise<boolean>);
    static REQUEST_PROMPT: true;
    static NO_NEED_TO_PROMPT: false;
  }

  export interface Prompt {
    name: string;
    checks: Check[] & { add(check: Check, index?: number): void };
  }

  export const interactionPolicy: {
    Check: typeof Check;
    base(): Prompt[] & { get(name: string): Prompt | undefined };
  };

  export const errors: {
    InvalidGrant: new (description?: string) => Error;
    InvalidTarget: new (description?: string) => Error;
  };

  /**
   * A signing key whose private half the provider does not hold (feature `externalSigningSupport`):
   * it publishes the public key `keyObject()` gives and hands `sign` the JWS signing input.
   */
  export class ExternalSigningKey {
    kid: string | undefined;
    alg: string | undefined;
    keyObject(): import('node:crypto').KeyObject;
    sign(data: Buffer): Buffer | Promise<Buffer>;
  }

  export interface Configuration {
    [option: string]: unknown;
  }

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    /** The Koa context of the request being handled (async local storage). */
    static get ctx(): { ip: string } | undefined;
    proxy: boolean;
    issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    use(middleware: (ctx: OidcContext, next: () => Promise<void>) => Promise<void>): void;
    Interaction: { find(uid: string): Promise<InteractionModel | undefined> };
    /** The interaction named by the browser's interaction cookie (SessionNotFound without one). */
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionModel>;
    /** Records an interaction's result (login, consent) and sends the browser back to the authorization. */
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantModel;
      find(id: string): Promise<GrantModel | undefined>;
    };
    Client: {
      find(id: string): Promise<ClientModel | undefined>;
      prototype: {
        compareClientSecret(actual: string): boolean | Promise<boolean>;
        includeSid(): boolean;
        /** Sends a logout token to the client's back-channel logout URI (lib/models/client.js). */
        backchannelLogout(sub: string, sid: string): Promise<void>;
      };
    };
    /** An ID token; with `issue({ use: 'logout' })` a logout token (`typ: logout+jwt`). */
    IdToken: new (
      claims: Record<string, unknown>,
      options: { client: ClientModel; ctx: undefined },
    ) => {
      mask: Record<string, unknown>;
      set(claim: string, value: unknown): void;
      issue(options: { use: 'idtoken' | 'logout' }): Promise<string>;
    };
  }

  export default Provider;
}

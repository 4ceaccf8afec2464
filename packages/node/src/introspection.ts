/**
 * The online check (RFC 7662 token introspection): asks EduPass whether a token's session is still
 * live — what a signature alone cannot tell after a sign-out or a block.
 */
import { EduPassAuthError } from './errors.ts';

export interface IntrospectionOptions {
  /** `POST` endpoint; default `<issuer>/introspect`. */
  url?: string | URL;
  /** The product's pid (or a registered application's client id). */
  clientId: string;
  /** Its introspection secret (INTROSPECTION_SECRETS on the server) or client secret. */
  clientSecret: string;
  /** Abort after this long (ms, default 5000). */
  timeoutMs?: number;
}

/** EduPass's answer: `active: false` alone for anything not live (or not issued for this client). */
export type IntrospectionResult =
  | { active: false }
  | {
      active: true;
      sub: string;
      sid: string;
      aud: string;
      iss: string;
      scope: string;
      client_id: string;
      token_type: string;
      iat: number;
      exp: number;
    };

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

export const introspectToken = async (
  url: string | URL,
  options: IntrospectionOptions,
  token: string,
): Promise<IntrospectionResult> => {
  const basic = Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString('base64');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
  } catch (error) {
    throw new EduPassAuthError('edupass_unavailable', `Token introspection at ${url} failed.`, { cause: error });
  }
  if (!response.ok) {
    throw new EduPassAuthError(
      'edupass_unavailable',
      `Token introspection at ${url} answered ${response.status}${response.status === 403 ? ' (check clientId and clientSecret)' : ''}.`,
    );
  }
  const body = (await response.json()) as IntrospectionResult;
  return body.active === true ? body : { active: false };
};

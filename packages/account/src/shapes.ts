/** What a method makes of the answer. */
import type { LoginResult, OauthPending, UserInfo } from '@edupass/protocol';
import type { Shape } from './call.ts';
import { expectArray, expectObject } from './parse.ts';
import { clearTokens, keepSignIn, signedIn } from './tokens.ts';

/** 204 calls: nothing to return. */
export const nothing: Shape<void> = () => undefined;

export const object: Shape<never> = (_client, reply) => expectObject(reply.data);

export const array: Shape<never[]> = (_client, reply) => expectArray(reply.data);

/** `{user_info, auth}`, tokens kept. */
export const signIn: Shape<LoginResult> = signedIn;

/** A linked third-party account signs in; an unlinked one gets an `oauth_ticket`. */
export const oauthSignIn: Shape<LoginResult | OauthPending> = (client, reply) => {
  const result = expectObject<LoginResult | OauthPending>(reply.data);
  keepSignIn(client, reply);
  return result;
};

/** The call ended the session (sign-out, password change): the tokens go. */
export const signOut: Shape<void> = clearTokens;

/** The signed-in user; the session learns it. */
export const user: Shape<UserInfo> = (client, reply) => {
  const info = expectObject<UserInfo>(reply.data);
  client.session.update({ status: 'signed-in', user: info });
  return info;
};

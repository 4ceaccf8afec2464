/** Keeping and dropping the token set, with the session and the other tabs told. */
import type { LoginResult, TokenSet, UserInfo } from '@edupass/protocol';
import { isRecord } from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { expectObject } from './parse.ts';
import { tellTabs } from './tab-sync.ts';
import { parseTokenSet, UNEXPECTED_TOKENS } from './token-set.ts';
import type { Reply } from './transport.ts';

export const storeTokens = (client: AccountClient, tokens: TokenSet, user?: UserInfo): void => {
  client.tokens.set(tokens);
  client.session.update({ status: 'signed-in', ...(user && { user }) });
  tellTabs(client, { tokens, ...(user && { user }) });
};

export const clearTokens = (client: AccountClient): void => {
  client.tokens.clear();
  client.session.update({ status: 'signed-out', user: null });
  tellTabs(client, { tokens: null, user: null });
};

/**
 * Takes the token set out of a sign-in answer (`auth.token`). Only a 200 answer stores tokens; a shape
 * other than the one the request asked for is only warned about (spec §8), never thrown.
 */
export const keepSignIn = (client: AccountClient, reply: Reply): void => {
  if (reply.status !== 200 || !isRecord(reply.data) || !isRecord(reply.data.auth)) return;
  const user = isRecord(reply.data.user_info) ? (reply.data.user_info as unknown as UserInfo) : undefined;
  const token = reply.data.auth.token;
  if (client.config.auth_version === undefined) {
    // The session rides on the server's HttpOnly cookie; `token` is a plain string kept by nobody.
    client.session.update({ status: 'signed-in', ...(user && { user }) });
    return;
  }
  const tokens = parseTokenSet(token);
  if (tokens) storeTokens(client, tokens, user);
  else client.logger.warn(UNEXPECTED_TOKENS, token);
};

/** A sign-in answer: `{user_info, auth}`, tokens kept. */
export const signedIn = (client: AccountClient, reply: Reply): LoginResult => {
  const result = expectObject<LoginResult>(reply.data);
  expectObject(result.user_info);
  expectObject(result.auth);
  keepSignIn(client, reply);
  return result;
};

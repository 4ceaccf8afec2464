/** Sending for the signed-in user (`auth: 'token'` and `'optional'` routes). */
import { CoreCode, TOKEN_RETRY_LIMIT } from '@edupass/protocol';
import type { Sender } from './call.ts';
import { isAuthError } from './errors.ts';
import { currentTokens, isReady, obtainTokens, type ReadyTokens } from './refresh.ts';
import { clearTokens } from './tokens.ts';
import { send } from './transport.ts';

/**
 * Sends with `Authorization: <type> <token>` when `auth_version` is set (spec §6), following the token
 * state of spec §4: refresh and retry on 'Access token is invalid.' up to `tokenRetries` times. Without
 * `auth_version`, the server's HttpOnly cookie alone carries the session.
 */
export const withToken: Sender = async (client, request) => {
  const attempt = (tokens?: ReadyTokens) =>
    send(client, {
      ...request,
      body: request.body?.(),
      headers: { ...request.headers, Authorization: tokens && `${tokens.type} ${tokens.access}` },
    });
  if (client.config.auth_version === undefined) return attempt();
  if (request.route.auth === 'optional') {
    const held = client.tokens.get();
    return attempt(isReady(held) ? held : undefined);
  }
  let tokens = await currentTokens(client);
  for (let retried = 0; ; retried++) {
    try {
      return await attempt(tokens);
    } catch (error) {
      if (!isAuthError(error)) throw error;
      if (error.code === CoreCode.TOKEN_INVALID && retried < (client.config.tokenRetries ?? TOKEN_RETRY_LIMIT)) {
        tokens = await obtainTokens(client, tokens.access);
        continue;
      }
      // The server no longer knows this session (signed out elsewhere, revoked): drop the dead tokens.
      if (error.code === CoreCode.NO_TOKEN) clearTokens(client);
      throw error;
    }
  }
};

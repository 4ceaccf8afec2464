import { deleteTokensRoute } from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { obtainTokens, type ReadyTokens } from '../refresh.ts';
import { signOut } from '../shapes.ts';
import { withToken } from '../with-token.ts';

/**
 * Replaces the access token now: by refresh when a refresh token is held, else by converting the old
 * session cookie. Shares the one in-flight exchange with every other caller and tab.
 */
export const refreshTokens = (client: AccountClient): Promise<ReadyTokens> =>
  obtainTokens(client, client.tokens.get().access);

/** Converts the old session cookie into tokens, when no token is held. */
export const convertCookie = (client: AccountClient): Promise<ReadyTokens> => obtainTokens(client);

/** Revokes the session of the held token on the server, then clears the tokens. */
export const revokeTokens: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, deleteTokensRoute, signOut);

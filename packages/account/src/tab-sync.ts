/**
 * Token changes shared with the other tabs of the origin, so a tab learns of a refresh, a sign-in or a
 * sign-out elsewhere without a request of its own.
 */
import type { TokenSet, UserInfo } from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { openChannel } from './globals.ts';

interface TabMessage {
  /** The new token set, or `null` when the tokens were cleared. */
  tokens: TokenSet | null;
  user?: UserInfo | null;
}

const channels = new WeakMap<AccountClient, BroadcastChannel | null>();

const channelOf = (client: AccountClient): BroadcastChannel | null => {
  let channel = channels.get(client);
  if (channel !== undefined) return channel;
  const { config } = client;
  channel = config.crossTab ? (openChannel(`edupass-account:${config.env}:${config.pid}`) ?? null) : null;
  channels.set(client, channel);
  channel?.addEventListener('message', ({ data }: MessageEvent<TabMessage>) => {
    // Applied to the local store only: cookie stores already hold it, memory stores need it.
    if (data.tokens) client.tokens.set(data.tokens);
    else client.tokens.clear();
    client.session.update({
      status: data.tokens ? 'signed-in' : 'signed-out',
      ...(data.user !== undefined && { user: data.user }),
    });
  });
  return channel;
};

/** Starts listening to the other tabs (on the first session subscriber). */
export const listenToTabs = (client: AccountClient): void => {
  channelOf(client);
};

export const tellTabs = (client: AccountClient, message: TabMessage): void => {
  channelOf(client)?.postMessage(message);
};

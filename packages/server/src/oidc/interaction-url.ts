/** Where the provider sends the browser for an interaction: the web client's sign-in screen. */
import { INTERACTION_PARAM } from '@edupass/protocol';
import type { Config } from '../config/config.ts';

export const interactionUrl = (config: Pick<Config, 'publicUrl'>, uid: string) =>
  `${config.publicUrl}/sign-in?${INTERACTION_PARAM}=${encodeURIComponent(uid)}`;

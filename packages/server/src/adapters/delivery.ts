/**
 * Outgoing codes go through one interface. Without provider settings they land in the dev outbox
 * (a database table the web client and tests read) and in the log.
 */

export type Channel = 'sms' | 'voice' | 'email';

export interface OutgoingCode {
  to: string;
  channel: Channel;
  /** What the code is for, e.g. 'register'; templates pick their wording from it. */
  scene: string;
  code: string;
  text: string;
}

/** A notice without a code: something changed on the account (sent to the old phone or e-mail). */
export interface OutgoingNotice {
  to: string;
  channel: 'sms' | 'email';
  /** What happened, e.g. 'phone_changed'; SMS providers need a template configured for it. */
  kind: string;
  subject: string;
  text: string;
}

export interface Delivery {
  send(message: OutgoingCode): Promise<void>;
  /** Notices; a delivery without it (a test's stand-in for codes) drops them. */
  notify?(notice: OutgoingNotice): Promise<void>;
  /** Lets go of connections (SMTP pool) when the server stops. */
  close?(): Promise<void> | void;
}

import type { Logger } from '../logger.ts';

export type { Logger };

/** A message as the dev outbox keeps it (services/codes/dev-outbox.ts writes it). */
export interface OutboxRow {
  recipient: string;
  channel: Channel;
  text: string;
  code: string;
  sent_at: number;
}

/**
 * The dev outbox. In development the code is in the log line too: it is how the person at the
 * machine reads codes when the development routes are off. In production (`development` false) a
 * message without a provider reaches nobody, and neither the table nor the log keeps its live code.
 */
export const outboxDelivery = (
  keep: (row: OutboxRow) => Promise<void>,
  logger: Logger,
  now: () => number = Date.now,
  development = false,
): Required<Pick<Delivery, 'send' | 'notify'>> => ({
  async send({ to, channel, text, code, scene }) {
    const kept = development ? { text, code } : { text: text.replaceAll(code, '******'), code: '' };
    await keep({ recipient: to, channel, ...kept, sent_at: now() });
    logger.info({ to, channel, scene, ...(development ? { code } : {}) }, 'code written to the dev outbox');
  },
  async notify({ to, channel, text, kind }) {
    // No code: the outbox's code column stays empty, which tells a notice from a code.
    await keep({ recipient: to, channel, text, code: '', sent_at: now() });
    logger.info({ to, channel, kind }, 'notice written to the dev outbox');
  },
});

/**
 * "Get code" beside a phone or e-mail field: disabled with the reason said aloud until the address is
 * valid; "Sending…" while it sends; then focus moves to the code box and the button counts down (kept
 * across reloads, code-wait.ts) until another may be asked for. A refused send says why right under the
 * button, and once a countdown is over a voice code is offered where the purpose has one.
 */

import { FormError } from '@edupass/ui-kit/status.tsx';
import { useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { type StoredWait, waitFor } from './code-wait.ts';
import { SlowNotice } from './slow-notice.tsx';

/** Seconds before another code may be asked for; the server's resend interval. */
export const RESEND_SECONDS = 60;

/** A refused send: `error` is said under the button (null when the form shows it at the input it is about). */
export type SendOutcome =
  | { sent: true }
  | {
      sent: false;
      error: string | null;
      retryAfter?: number | undefined;
      /** The network or the server failed the send: the same send may work again. */
      trouble?: boolean | undefined;
    };

/** Sends a code; `waitKey` names the countdown (purpose and address), `voice` sends it by voice call. */
export interface CodeSender {
  (): Promise<SendOutcome>;
  waitKey: string;
  voice?: (() => Promise<SendOutcome>) | undefined;
}

export interface CodeButtonProps {
  /** Why no code can be sent yet (invalid address), or null when it can. */
  blockedReason: string | null;
  onSend: CodeSender;
  /** Sends once, as soon as it may: a send the form resumes after a new sign-in (ui/resume.ts). */
  sendNow?: boolean | undefined;
}

export const CodeButton = ({ blockedReason, onSend, wait, sendNow }: CodeButtonProps & { wait: StoredWait }) => {
  const { t } = useI18n();
  const reasonId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const key = onSend.waitKey;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<{ message: string; retry: (() => void) | null } | null>(null);
  const { left, asked } = wait;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new purpose or address starts without an error.
  useEffect(() => setError(null), [key]);

  const send = async (how: () => Promise<SendOutcome>) => {
    setSending(true);
    setError(null);
    try {
      const outcome = await how();
      if (outcome.sent) {
        waitFor(key, RESEND_SECONDS);
        button.current?.closest('.field-row')?.querySelector('input')?.focus();
      } else {
        setError(
          outcome.error === null
            ? null
            : { message: outcome.error, retry: outcome.trouble ? () => void send(how) : null },
        );
        if (outcome.retryAfter !== undefined) waitFor(key, outcome.retryAfter);
      }
    } finally {
      wait.reread();
      setSending(false);
    }
  };

  const reason = left > 0 ? t('code.waitReason', { s: left }) : blockedReason;
  const resumed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: sent once, with the address of the render that allowed it.
  useEffect(() => {
    if (!sendNow || resumed.current || reason !== null) return;
    resumed.current = true;
    void send(onSend);
  }, [sendNow, reason]);
  const label = sending
    ? t('code.sending')
    : left > 0
      ? t('code.wait', { s: left })
      : asked
        ? t('code.resend')
        : t('code.send');
  const voice = onSend.voice;
  return (
    <>
      <button
        ref={button}
        type="button"
        className="button secondary code-button"
        aria-disabled={reason !== null || sending}
        aria-describedby={reason ? reasonId : undefined}
        onClick={() => {
          if (reason === null && !sending) void send(onSend);
        }}
      >
        {label}
      </button>
      <FormError message={error?.message ?? null} onRetry={error?.retry} className="code-error error-text" />
      <SlowNotice busy={sending} className="slow-notice code-reason" />
      {reason ? (
        <span id={reasonId} className="code-reason">
          {reason}
        </span>
      ) : null}
      {voice && asked && left === 0 && blockedReason === null ? (
        <button
          type="button"
          className="button ghost code-voice"
          aria-disabled={sending}
          onClick={() => {
            if (!sending) void send(voice);
          }}
        >
          {t('code.voice')}
        </button>
      ) : null}
    </>
  );
};

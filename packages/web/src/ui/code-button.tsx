/**
 * "Get code" beside a phone or e-mail field: disabled with the reason said aloud until the address is
 * valid; "Sending…" while it sends; then focus moves to the code box and the button counts down (kept
 * across reloads, code-wait.ts) until another may be asked for. A refused send says why right under the
 * button, and once a countdown is over a voice code is offered where the purpose has one.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { readWaitUntil, waitFor } from './code-wait.ts';

/** Seconds before another code may be asked for; the server's resend interval. */
export const RESEND_SECONDS = 60;

export type SendOutcome = { sent: true } | { sent: false; error: string; retryAfter?: number | undefined };

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
}

const TICK_MS = 250;

export const CodeButton = ({ blockedReason, onSend }: CodeButtonProps) => {
  const { t } = useI18n();
  const reasonId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const key = onSend.waitKey;
  const [waitUntil, setWaitUntil] = useState(() => readWaitUntil(key));
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setWaitUntil(readWaitUntil(key));
    setNow(Date.now());
    setError(null);
  }, [key]);

  const left = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each tick (`now`) arms the next one.
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), TICK_MS);
    return () => window.clearTimeout(timer);
  }, [left, now]);

  const send = async (how: () => Promise<SendOutcome>) => {
    setSending(true);
    setError(null);
    try {
      const outcome = await how();
      if (outcome.sent) {
        waitFor(key, RESEND_SECONDS);
        button.current?.closest('.field-row')?.querySelector('input')?.focus();
      } else {
        setError(outcome.error);
        if (outcome.retryAfter !== undefined) waitFor(key, outcome.retryAfter);
      }
    } finally {
      setWaitUntil(readWaitUntil(key));
      setNow(Date.now());
      setSending(false);
    }
  };

  const asked = waitUntil > 0;
  const reason = left > 0 ? t('code.waitReason', { s: left }) : blockedReason;
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
      {error ? (
        <span className="code-error error-text" role="alert">
          {error}
        </span>
      ) : null}
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

/**
 * "Get code" beside a phone or e-mail field: disabled with the reason said aloud until the address is
 * valid, then counting down after a send until another may be asked for.
 */
import { useEffect, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

/** Seconds before another code may be asked for; the server's resend interval. */
export const RESEND_SECONDS = 60;

export interface CodeButtonProps {
  /** Why no code can be sent yet (invalid address), or null when it can. */
  blockedReason: string | null;
  /** Sends the code; a rejection shows in the form and starts no countdown. */
  onSend(): Promise<boolean>;
}

export const CodeButton = ({ blockedReason, onSend }: CodeButtonProps) => {
  const { t } = useI18n();
  const reasonId = useId();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft(left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const reason = left > 0 ? t('code.waitReason', { s: left }) : blockedReason;
  const label = left > 0 ? t('code.wait', { s: left }) : sentOnce ? t('code.resend') : t('code.send');
  return (
    <>
      <button
        type="button"
        className="button secondary code-button"
        aria-disabled={reason !== null || sending}
        aria-describedby={reason ? reasonId : undefined}
        onClick={async () => {
          if (reason !== null || sending) return;
          setSending(true);
          try {
            if (await onSend()) {
              setSentOnce(true);
              setLeft(RESEND_SECONDS);
            }
          } finally {
            setSending(false);
          }
        }}
      >
        {label}
      </button>
      {reason ? (
        <span id={reasonId} className="code-reason">
          {reason}
        </span>
      ) : null}
    </>
  );
};

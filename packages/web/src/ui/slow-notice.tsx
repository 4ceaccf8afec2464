/**
 * A wait for the server that has gone on for a while: rather than "please wait" for the whole time-out,
 * the form says the server is slow to answer and that it is still waiting (read out politely). What
 * follows is the answer, or the time-out's own message with a retry (network-trouble.ts).
 */
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { SLOW_MS } from './slow-wait.ts';

export const SlowNotice = ({ busy, className = 'slow-notice' }: { busy: boolean; className?: string }) => {
  const { t } = useI18n();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!busy) return;
    const timer = window.setTimeout(() => setSlow(true), SLOW_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);
  // The live region is there before its words, so they are read out when they come.
  return (
    <p className={className} role="status">
      {slow ? t('form.slow') : null}
    </p>
  );
};

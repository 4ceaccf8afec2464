/**
 * The operator's second factor in the console: the sign-in's second step (an app or recovery code),
 * and the enrolment screen the console shows while the admin API answers E_14.
 */
import type { SecondFactorChallenge, TotpSetup } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { confirmAppSetup, finishSignIn, startAppSetup } from '../api/second-factor.ts';
import { useConsoleText } from '../i18n/i18n.ts';

const CodeForm = ({ label, submit, busyText }: { label: string; submit(code: string): void; busyText?: string }) => {
  const { t } = useConsoleText();
  const [code, setCode] = useState('');
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) submit(code.trim());
  };
  return (
    <form onSubmit={send} className="console-form">
      <label htmlFor="console-mfa-code">{label}</label>
      <input
        id="console-mfa-code"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <button type="submit" className="console-button">
        {busyText ?? t('mfa.verify')}
      </button>
    </form>
  );
};

export const SecondStep = ({ challenge }: { challenge: SecondFactorChallenge }) => {
  const { t, errorText } = useConsoleText();
  const { error, run } = useAction(errorText);
  return (
    <main id="console-main" tabIndex={-1} className="console-sign-in">
      <h1>{t('mfa.secondStep')}</h1>
      <p>{t('mfa.secondStepIntro')}</p>
      <CodeForm label={t('mfa.code')} submit={(code) => void run(() => finishSignIn(challenge.mfa_challenge, code))} />
      <FormError message={error} />
    </main>
  );
};

/** First console sign-in of an operator without a second factor: an authenticator app, then on. */
export const Enrolment = ({ onEnrolled }: { onEnrolled(): void }) => {
  const { t, errorText } = useConsoleText();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { error, run } = useAction(errorText);
  // Once: a second start would replace the key on the server while the first one is shown.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run(async () => setSetup(await startAppSetup()));
  }, [run]);
  const confirm = (code: string) =>
    void run(async () => {
      const answer = await confirmAppSetup(code);
      if (answer.recovery_codes) setCodes(answer.recovery_codes);
      else onEnrolled();
    });
  return (
    <main id="console-main" tabIndex={-1} className="console-sign-in">
      <h1>{t('mfa.setupTitle')}</h1>
      {codes ? (
        <>
          <p>{t('mfa.recoveryShown')}</p>
          <ul aria-label={t('mfa.recovery')}>
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <button type="button" className="console-button" onClick={onEnrolled}>
            {t('mfa.continue')}
          </button>
        </>
      ) : setup ? (
        <>
          <p>{t('mfa.setupIntro')}</p>
          <img alt={t('mfa.appQr')} src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`} width={200} />
          <p>
            {t('mfa.appKey')}: <code className="console-secret">{setup.secret}</code>
          </p>
          <CodeForm label={t('mfa.appCode')} submit={confirm} busyText={t('mfa.confirm')} />
        </>
      ) : null}
      <FormError message={error} />
    </main>
  );
};

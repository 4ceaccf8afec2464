/** The operator's sign-in: phone, username or e-mail and password, through the captcha flow (human-check.ts). */
import type { SecondFactorChallenge } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { withLoginCaptcha } from '../api/human-check.ts';
import { secondStepOf } from '../api/second-factor.ts';
import { signInOperator } from '../api/session.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { SecondStep } from './second-factor.tsx';

export const SignIn = ({ notice }: { notice?: string }) => {
  const { t, errorText, locale } = useConsoleText();
  const [identity, setIdentity] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction(errorText);
  const [challenge, setChallenge] = useState<SecondFactorChallenge>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() =>
      withLoginCaptcha(identity.trim(), locale, (proof) => signInOperator(identity.trim(), password, proof)).catch(
        (failed: unknown) => {
          const asked = secondStepOf(failed);
          if (!asked) throw failed;
          setChallenge(asked);
        },
      ),
    );
  };
  if (challenge) return <SecondStep challenge={challenge} />;
  return (
    <main id="console-main" tabIndex={-1} className="console-sign-in">
      <h1>{t('signIn.title')}</h1>
      {notice ? (
        <p className="console-notice" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={submit} className="console-form">
        <label htmlFor="console-identity">{t('signIn.identity')}</label>
        <input
          id="console-identity"
          autoComplete="username"
          required
          value={identity}
          onChange={(e) => setIdentity(e.target.value)}
        />
        <label htmlFor="console-password">{t('signIn.password')}</label>
        <input
          id="console-password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={error} />
        <button type="submit" className="console-button" disabled={busy}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
      </form>
    </main>
  );
};

export const OperatorsOnly = () => {
  const { t } = useConsoleText();
  return (
    <main id="console-main" tabIndex={-1} className="console-sign-in">
      <h1>{t('denied.title')}</h1>
      <p>{t('denied.body')}</p>
    </main>
  );
};

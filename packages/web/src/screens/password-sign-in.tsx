/**
 * Sign in with phone, username or e-mail and password, through login/security: the rule service
 * hands out a ticket at once for an ordinary attempt and puts up the puzzle for a risky one (after
 * failed attempts, say). A locked account shows the time left and the ways in that do not wait.
 */
import { loginByPassword, loginByPasswordSecure } from '@edupass/account';
import { retryWhileBusy } from '@edupass/account/busy';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { prepareCaptcha, withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { rememberWeakPassword } from '../session/weak-password.ts';
import { Field } from '../ui/field.tsx';
import { Link } from '../ui/link.tsx';
import { SlowNotice } from '../ui/slow-notice.tsx';
import { askingSecondStep, type PendingSecondStep } from './second-step-ask.ts';
import { LockNotice, lockedFor, useLockCountdown } from './sign-in-lock.tsx';

/** The sign-in, for the product waiting on it if any; a weak password remembered for the account centre. */
const signIn = (identity: string, password: string) =>
  signInForProduct(
    (product) =>
      withCaptcha('login', identity, (proof) =>
        proof
          ? loginByPasswordSecure(client, { identity, password, ...product }, proof)
          : // A server without the captcha service: the plain sign-in is all there is.
            loginByPassword(client, { identity, password, ...product }),
      ).then((result) => {
        rememberWeakPassword(result.auth.is_weak_password);
        return result;
      }),
    'password',
  );

export interface PasswordSignInProps {
  onSecondStep(pending: PendingSecondStep): void;
  /** Switches to the SMS code sign-in, with the identity typed here (a phone number, perhaps). */
  onUseSms(identity: string): void;
  /**
   * A pupil signs in with the username on their login card (the card's page sends them here): the
   * field says "Username", where the card has it.
   * @default false
   */
  pupil?: boolean;
}

export const PasswordSignIn = ({ onSecondStep, onUseSms, pupil = false }: PasswordSignInProps) => {
  const { t } = useI18n();
  const action = useAction();
  const [identity, setIdentity] = useState('');
  const lock = useLockCountdown(identity);
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  // The server asked to wait a moment (many signing in at once): the form asks again by itself.
  const [crowded, setCrowded] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!identity || !password) return void requestAnimationFrame(() => action.focusFirstInvalid());
    if (lock.left > 0) return;
    lock.clear();
    void action.run(async () => {
      try {
        const result = await askingSecondStep(
          retryWhileBusy(() => signIn(identity.trim(), password), setCrowded),
          'password',
          onSecondStep,
        );
        if (result) await afterSignIn('password');
      } catch (error) {
        const seconds = lockedFor(error);
        // With the seconds known, the lock's own notice says it all; without them, the catalogue's text.
        if (seconds === undefined || seconds === 0) throw error;
        lock.start(seconds);
      }
    });
  };

  const required = (value: string) => (submitted && !value ? t('form.required') : null);
  return (
    <form onSubmit={submit} onFocus={prepareCaptcha} noValidate>
      {/* A username is typed as written: no capital first letter, no correction, the letters' keyboard. */}
      <Field
        label={pupil ? t('form.cardUsername') : t('form.identity')}
        hint={pupil ? t('form.cardUsernameHint') : undefined}
        value={identity}
        onValue={setIdentity}
        error={required(identity)}
        bind={action.field('identity')}
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        inputMode="text"
        required
      />
      <Field
        label={t('form.password')}
        value={password}
        onValue={setPassword}
        error={required(password)}
        bind={action.field('password')}
        type="password"
        autoComplete="current-password"
        required
      />
      <FormError message={action.error} onRetry={action.retry} />
      {lock.met ? <LockNotice left={lock.left} onUseSms={() => onUseSms(identity.trim())} /> : null}
      <button type="submit" className="button primary block" aria-busy={action.busy} aria-disabled={lock.left > 0}>
        {action.busy ? t('form.working') : t('signIn.submit')}
      </button>
      {crowded ? (
        <p className="slow-notice" role="status">
          {t('signIn.crowded')}
        </p>
      ) : (
        <SlowNotice busy={action.busy} />
      )}
      {pupil ? (
        // A card's pupil has no phone or e-mail to reset by: the teacher resets it (and prints a new card).
        <p className="aside">{t('signIn.cardForgot')}</p>
      ) : (
        <p className="aside">
          {/* Typed an e-mail address: the reset opens on e-mail. */}
          <Link href={identity.includes('@') ? '/reset-password?by=email' : '/reset-password'}>
            {t('signIn.forgot')}
          </Link>
        </p>
      )}
    </form>
  );
};

export default PasswordSignIn;

/**
 * Sign in with phone, username or e-mail and password, through login/security: the rule service
 * hands out a ticket at once for an ordinary attempt and puts up the puzzle for a risky one (after
 * failed attempts, say).
 */
import { loginByPassword, loginByPasswordSecure } from '@edupass/account';
import { type FormEvent, useState } from 'react';
import { prepareCaptcha, withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { rememberWeakPassword } from '../session/weak-password.ts';
import { Field } from '../ui/field.tsx';
import { Link } from '../ui/link.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';
import { askingSecondStep, type PendingSecondStep } from './second-step.tsx';

const signIn = (identity: string, password: string) =>
  withCaptcha('login', identity, (proof) =>
    proof
      ? loginByPasswordSecure(client, { identity, password }, proof)
      : // A server without the captcha service: the plain sign-in is all there is.
        loginByPassword(client, { identity, password }),
  );

export const PasswordSignIn = ({ onSecondStep }: { onSecondStep(pending: PendingSecondStep): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const [identity, setIdentity] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!identity || !password) return;
    void action.run(async () => {
      const result = await askingSecondStep(signIn(identity.trim(), password), 'password', onSecondStep);
      if (!result) return;
      rememberWeakPassword(result.auth.is_weak_password);
      await afterSignIn('password');
    });
  };

  const required = (value: string) => (submitted && !value ? t('form.required') : null);
  return (
    <form onSubmit={submit} onFocus={prepareCaptcha} noValidate>
      <Field
        label={t('form.identity')}
        value={identity}
        onValue={setIdentity}
        error={required(identity)}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <Field
        label={t('form.password')}
        value={password}
        onValue={setPassword}
        error={required(password)}
        type="password"
        autoComplete="current-password"
        required
      />
      <FormError message={action.error} />
      <button type="submit" className="button primary block" aria-busy={action.busy}>
        {action.busy ? t('form.working') : t('signIn.submit')}
      </button>
      <p className="aside">
        <Link href="/reset-password">{t('signIn.forgot')}</Link>
      </p>
    </form>
  );
};

/**
 * Sign in with phone, username or e-mail and password. When the server asks for it, or after a few
 * failures in this page, the sign-in goes through human verification (login/security).
 */
import { loginByPassword, loginByPasswordSecure } from '@edupass/account';
import { type FormEvent, useState } from 'react';
import { asksForCaptcha, verifyHuman } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { Field } from '../ui/field.tsx';
import { Link } from '../ui/link.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';

/** Failed attempts after which every attempt is verified first. */
export const RISKY_AFTER_FAILURES = 3;
let failures = 0;

const signInVerified = async (identity: string, password: string) => {
  const proof = await verifyHuman('login', identity);
  // An older server without the captcha service: the plain sign-in is all there is.
  if (!proof) return loginByPassword(client, { identity, password });
  return loginByPasswordSecure(client, { identity, password }, proof);
};

const signIn = async (identity: string, password: string) => {
  if (failures >= RISKY_AFTER_FAILURES) return signInVerified(identity, password);
  try {
    return await loginByPassword(client, { identity, password });
  } catch (error) {
    if (asksForCaptcha(error)) return signInVerified(identity, password);
    throw error;
  }
};

export const PasswordSignIn = () => {
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
      try {
        await signIn(identity.trim(), password);
      } catch (error) {
        failures++;
        throw error;
      }
      failures = 0;
      await afterSignIn('password');
    });
  };

  const required = (value: string) => (submitted && !value ? t('form.required') : null);
  return (
    <form onSubmit={submit} noValidate>
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
      {failures >= RISKY_AFTER_FAILURES ? <p className="hint">{t('signIn.verifyNote')}</p> : null}
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

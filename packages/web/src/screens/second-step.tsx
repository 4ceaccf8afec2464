/**
 * The second step of a sign-in (the server answered MFA_REQUIRED with a challenge): a code from the
 * authenticator app or a recovery code, or a passkey. And signing in with a passkey alone.
 */
import {
  passkeySignIn,
  passkeySignInOptions,
  type SecondFactorProof,
  secondFactorChallengeOf,
  secondFactorPasskeyOptions,
  verifySecondFactor,
} from '@edupass/account/second-factor';
import type { SecondFactorChallenge } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { passkeysSupported, signWithPasskey } from '../ui/passkey.ts';
import { SecondFactorCode } from '../ui/second-factor-code.tsx';
import { FormError } from '../ui/status.tsx';
import { useAction } from '../ui/use-action.ts';

export interface PendingSecondStep {
  challenge: SecondFactorChallenge;
  /** The first step's method, for the sign-in's telemetry. */
  method: string;
}

/** The first step's result, or undefined when the server asked for the second step (handed to `onSecondStep`). */
export const askingSecondStep = async <R,>(
  first: Promise<R>,
  method: string,
  onSecondStep: (pending: PendingSecondStep) => void,
): Promise<R | undefined> => {
  try {
    return await first;
  } catch (error) {
    const challenge = secondFactorChallengeOf(error);
    if (!challenge) throw error;
    onSecondStep({ challenge, method });
    return undefined;
  }
};

export const SecondStep = ({ pending }: { pending: PendingSecondStep }) => {
  const { t } = useI18n();
  const action = useAction();
  const [code, setCode] = useState('');
  const { mfa_challenge, mfa_methods } = pending.challenge;
  const finish = (proof: () => Promise<SecondFactorProof>) =>
    void action.run(async () => {
      await verifySecondFactor(client, { mfa_challenge, ...(await proof()) });
      await afterSignIn(`${pending.method}+second_factor`);
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) finish(async () => ({ code: code.trim() }));
  };
  const byPasskey = () =>
    finish(async () => ({
      passkey: await signWithPasskey(await secondFactorPasskeyOptions(client, { mfa_challenge })),
    }));
  return (
    <section aria-labelledby="second-step-title">
      <h2 id="second-step-title">{t('mfa.secondStep')}</h2>
      {mfa_methods.includes('totp') || mfa_methods.includes('recovery_code') ? (
        <form onSubmit={submit} noValidate>
          <p>{t('mfa.secondStepIntro')}</p>
          <SecondFactorCode label={t('mfa.code')} value={code} onValue={setCode} />
          <button type="submit" className="button primary block" aria-busy={action.busy}>
            {action.busy ? t('form.working') : t('mfa.verify')}
          </button>
        </form>
      ) : null}
      {mfa_methods.includes('passkey') ? (
        <button type="button" className="button secondary block" onClick={byPasskey} aria-busy={action.busy}>
          {t('mfa.usePasskey')}
        </button>
      ) : null}
      <FormError message={action.error} />
    </section>
  );
};

/** Sign-in with a passkey alone: the browser offers the passkeys it holds for this site. */
export const PasskeySignIn = () => {
  const { t } = useI18n();
  const action = useAction();
  if (!passkeysSupported()) return null;
  const signIn = () =>
    void action.run(async () => {
      await passkeySignIn(client, { response: await signWithPasskey(await passkeySignInOptions(client)) });
      await afterSignIn('passkey');
    });
  return (
    <div className="passkey-sign-in">
      <button type="button" className="button secondary block" onClick={signIn} aria-busy={action.busy}>
        {t('mfa.passkeySignIn')}
      </button>
      <FormError message={action.error} />
    </div>
  );
};

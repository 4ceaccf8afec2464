/**
 * The second step of a sign-in (the server answered MFA_REQUIRED with a challenge, second-step-ask.ts):
 * a code from the authenticator app or a recovery code, or a passkey.
 */
import { type SecondFactorProof, secondFactorPasskeyOptions, verifySecondFactor } from '@edupass/account/second-factor';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { signWithPasskey } from '../ui/passkey.ts';
import { SecondFactorCode } from '../ui/second-factor-code.tsx';
import { SlowNotice } from '../ui/slow-notice.tsx';
import type { PendingSecondStep } from './second-step-ask.ts';

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
          <SlowNotice busy={action.busy} />
        </form>
      ) : null}
      {mfa_methods.includes('passkey') ? (
        <button type="button" className="button secondary block" onClick={byPasskey} aria-busy={action.busy}>
          {t('mfa.usePasskey')}
        </button>
      ) : null}
      <FormError message={action.error} onRetry={action.retry} />
    </section>
  );
};

export default SecondStep;

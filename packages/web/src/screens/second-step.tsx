/**
 * The step after a sign-in's first (second-step-ask.ts): a code from the authenticator app or a
 * recovery code, or a passkey (MFA_REQUIRED); then, for an account waiting to be deleted
 * (ACCOUNT_DELETING), keeping it or letting it go.
 */
import { type DeletionScheduled, deletionScheduledOf, keepAccount } from '@edupass/account/delete-account';
import {
  type SecondFactorChallenge,
  type SecondFactorProof,
  secondFactorPasskeyOptions,
  verifySecondFactor,
} from '@edupass/account/second-factor';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { signWithPasskey } from '../ui/passkey.ts';
import { AppOrRecoveryCode } from '../ui/second-factor-code.tsx';
import { SlowNotice } from '../ui/slow-notice.tsx';
import type { PendingSecondStep } from './second-step-ask.ts';

/** Keeping an account waiting to be deleted: the date it goes, a button to keep it, and a way out. */
const KeepAccount = ({ deletion, method }: { deletion: DeletionScheduled; method: string }) => {
  const { t, locale } = useI18n();
  const action = useAction();
  const keep = () =>
    void action.run(async () => {
      await keepAccount(client, { deletion_ticket: deletion.deletion_ticket });
      await afterSignIn(method);
    });
  return (
    <section aria-labelledby="keep-account-title">
      <h2 id="keep-account-title">{t('keepAccount.title')}</h2>
      <p>{t('keepAccount.explain', { date: new Date(deletion.erase_at).toLocaleDateString(locale) })}</p>
      <button type="button" className="button primary block" onClick={keep} aria-busy={action.busy}>
        {action.busy ? t('form.working') : t('keepAccount.keep')}
      </button>
      <SlowNotice busy={action.busy} />
      <FormError message={action.error} onRetry={action.retry} />
      {/* A full load of the first screen: nothing of this sign-in is kept. */}
      <button type="button" className="button secondary block" onClick={() => window.location.assign('/')}>
        {t('keepAccount.leave')}
      </button>
    </section>
  );
};

export const SecondStep = ({ pending }: { pending: PendingSecondStep }) => {
  // The second factor may come first; an account waiting to be deleted says so once it is proved.
  const [deletion, setDeletion] = useState(pending.deletion);
  const method = pending.challenge ? `${pending.method}+second_factor` : pending.method;
  if (deletion || !pending.challenge) {
    return deletion ? <KeepAccount deletion={deletion} method={method} /> : null;
  }
  return <SecondFactorStep challenge={pending.challenge} method={method} onDeletion={setDeletion} />;
};

const SecondFactorStep = ({
  challenge,
  method,
  onDeletion,
}: {
  challenge: SecondFactorChallenge;
  method: string;
  onDeletion(deletion: DeletionScheduled): void;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const [code, setCode] = useState('');
  const { mfa_challenge, mfa_methods } = challenge;
  const finish = (proof: () => Promise<SecondFactorProof>) =>
    void action.run(async () => {
      let stayed: unknown;
      try {
        const given = await proof();
        stayed = await signInForProduct(
          (product) => verifySecondFactor(client, { mfa_challenge, ...given, ...product }),
          method,
        );
      } catch (error) {
        const deletion = deletionScheduledOf(error);
        if (!deletion) throw error;
        onDeletion(deletion);
        return;
      }
      if (stayed) await afterSignIn(method);
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
          <AppOrRecoveryCode value={code} onValue={setCode} recovery={mfa_methods.includes('recovery_code')} />
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

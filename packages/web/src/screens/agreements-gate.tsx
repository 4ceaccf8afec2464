/** Agreements published since the user last signed: read and accept them, or sign out. */
import { signAgreements } from '@edupass/account';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { agreementsSigned, checkAgreements, useGate } from '../session/gate.ts';
import { trackEvent } from '../telemetry/telemetry.ts';
import { AgreementItem } from '../ui/agreements-check.tsx';
import { Screen } from '../ui/screen.tsx';
import { signOutAndLeave } from '../ui/sign-out.ts';

const AgreementsGate = () => {
  const { t } = useI18n();
  const { toSign } = useGate();
  const action = useAction();
  return (
    <Screen title={t('gate.title')}>
      <p>{t('gate.intro')}</p>
      <ul className="agreement-list">
        {toSign.map((agreement) => (
          <AgreementItem key={agreement.id} agreement={agreement} />
        ))}
      </ul>
      <FormError message={action.error} onRetry={action.retry} />
      <div className="actions">
        <button
          type="button"
          className="button primary"
          aria-busy={action.busy}
          onClick={() =>
            action.run(async () => {
              await signAgreements(client, { agreement_ids: toSign.map((a) => a.id) });
              trackEvent('agreements_signed', { ids: toSign.map((a) => a.id) });
              agreementsSigned();
              await checkAgreements();
            })
          }
        >
          {t('gate.submit')}
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={() =>
            // A failed sign-out is said here: leaving would pass the gate still signed in.
            action.run(() => signOutAndLeave(agreementsSigned))
          }
        >
          {t('gate.signOut')}
        </button>
      </div>
    </Screen>
  );
};

export default AgreementsGate;

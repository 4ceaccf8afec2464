/**
 * Deleting the account: what goes is said first, a last confirmation, a fresh proof when the server
 * asks for one, then the visitor is signed out and sent to the sign-in screen with a notice. An
 * account that could give no proof here signs in again and the deletion it confirmed goes on.
 */
import { deleteAccount } from '@edupass/account/delete-account';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useI18n } from '../../i18n/i18n.ts';
import { navigate } from '../../router/history.ts';
import { client } from '../../session/account.ts';
import { site } from '../../site.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useResume } from '../../ui/resume.ts';
import { useStepUp } from '../../ui/step-up.tsx';

/** Nothing to keep but the place: the deletion was confirmed before signing in again. */
const RESUMABLE = { form: 'delete-account', fields: () => ({}) };

/**
 * What the page says of the waiting period: its days and last day when the server wrote them into the
 * page, that there is none (0), or the general sentence when the page does not say.
 */
const useWaitingWords = () => {
  const { t, locale } = useI18n();
  const days = site.deletionGraceDays;
  if (days === undefined) return { explain: t('deleteAccount.explain'), confirm: t('deleteAccount.confirmBody') };
  if (days === 0) return { explain: t('deleteAccount.explainAtOnce'), confirm: t('deleteAccount.confirmAtOnce') };
  const date = new Date(Date.now() + days * 86_400_000).toLocaleDateString(locale, { dateStyle: 'long' });
  return {
    explain: t('deleteAccount.explainDays', { days, date }),
    confirm: t('deleteAccount.confirmDays', { date }),
  };
};

export const DeleteAccountSection = () => {
  const { t } = useI18n();
  const waiting = useWaitingWords();
  const action = useAction();
  const stepUp = useStepUp(action, RESUMABLE);
  const confirm = useConfirm();
  const start = async () => {
    const sure = await confirm.ask({
      title: t('deleteAccount.confirmTitle'),
      body: waiting.confirm,
      confirmLabel: t('deleteAccount.submit'),
    });
    if (sure) remove();
  };
  const remove = () =>
    void stepUp.run(async () => {
      await deleteAccount(client);
      navigate('/?notice=deleted', { replace: true });
    });
  useResume(RESUMABLE.form, ({ step }) => {
    if (step === 'submit') remove();
  });
  return (
    <section className="subsection" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">{t('deleteAccount.title')}</h2>
      <p>{waiting.explain}</p>
      {stepUp.panel}
      <FormError message={action.error} onRetry={action.retry} />
      <button type="button" className="button danger" aria-busy={action.busy} onClick={() => void start()}>
        {t('deleteAccount.submit')}
      </button>
      {confirm.dialog}
    </section>
  );
};

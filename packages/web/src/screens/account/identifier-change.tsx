/**
 * Adding or changing a sign-in identifier (the phone number, the e-mail address): a step-up first, a
 * code sent to the new value, and after the change a button that offers to end the other sessions,
 * which may be someone else's.
 */
import { endOtherSessions } from '@edupass/account/step-up';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { type Resumable, useResumed } from '../../ui/resume.ts';
import { useStepUp } from '../../ui/step-up.tsx';
import { useSendCode } from '../../ui/use-send-code.ts';

/**
 * Ending the other sessions asks first: render `endOthersButton` and `confirmDialog` in the section.
 * `resumable` names the form and its fields; `resumed` gives them back after signing in again.
 */
export const useIdentifierChange = (onChanged: () => void, resumable: Resumable) => {
  const { t } = useI18n();
  const confirm = useConfirm();
  const action = useAction();
  const stepUp = useStepUp(action, resumable);
  const resumed = useResumed(resumable.form);
  const { code, setCode, sender } = useSendCode(action, stepUp);
  const [offerEndOthers, setOfferEndOthers] = useState(false);

  /**
   * Runs `change` after the step-up; once it went through, clears the code, offers to end the other
   * sessions when `offerEnd`, and tells `done`.
   */
  const change = (work: () => Promise<void>, done: string, offerEnd = true) =>
    void stepUp.run(async () => {
      await work();
      setCode('');
      setOfferEndOthers(offerEnd);
      onChanged();
      return done;
    });

  const endOthers = async () => {
    const sure = await confirm.ask({
      title: t('devices.signOutOthersTitle'),
      body: t('devices.signOutOthersAfterChange'),
      confirmLabel: t('stepUp.endOthers'),
    });
    if (!sure) return;
    // The change's proof may have lapsed meanwhile: the server then asks again.
    await stepUp.run(async () => {
      await endOtherSessions(client);
      setOfferEndOthers(false);
      return t('stepUp.endOthersDone');
    });
  };
  const endOthersButton = offerEndOthers ? (
    <button type="button" className="button secondary" onClick={endOthers}>
      {t('stepUp.endOthers')}
    </button>
  ) : null;

  return {
    action,
    stepUp,
    code,
    setCode,
    sender,
    change,
    endOthersButton,
    confirmDialog: confirm.dialog,
    resumed,
  };
};

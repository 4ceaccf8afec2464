/**
 * The guardian's adult check on the consent page, when the operator turned it on (REALNAME_PROVIDER):
 * the name and ID number go to the server once, which asks the real-name vendor and keeps only the
 * result. A result other than `adult` says what to do; `adult` lets the guardian decide.
 */
import { type AdultCheckResult, adultCheckTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { eduCall } from '../session/edu.ts';
import { Field } from '../ui/field.tsx';

export const AdultCheckForm = ({ onPassed }: { onPassed: () => void }) => {
  const { t } = useI18n();
  const action = useAction();
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  return (
    <form
      className="account-section"
      aria-labelledby="adult-check-title"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const answer = await eduCall(adultCheckTable.adultCheck, { body: { name, id_number: idNumber } });
          if (answer.state === 'passed') {
            // Cleared from the page as soon as they have served.
            setName('');
            setIdNumber('');
            onPassed();
            return t('adultCheck.passed');
          }
          const result: AdultCheckResult =
            answer.result === 'adult' || answer.result === null ? 'mismatch' : answer.result;
          throw new Error(t(`adultCheck.result.${result}`));
        });
      }}
    >
      <h2 id="adult-check-title">{t('adultCheck.title')}</h2>
      <p className="hint">{t('adultCheck.body')}</p>
      <Field
        label={t('adultCheck.name')}
        autoComplete="off"
        required
        maxLength={40}
        value={name}
        onValue={setName}
        data-testid="adult-check-name"
      />
      <Field
        label={t('adultCheck.idNumber')}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="characters"
        required
        maxLength={18}
        value={idNumber}
        onValue={setIdNumber}
        data-testid="adult-check-number"
      />
      <FormError message={action.error} />
      <p>
        <button type="submit" className="button primary block" aria-busy={action.busy}>
          {t('adultCheck.submit')}
        </button>
      </p>
    </form>
  );
};

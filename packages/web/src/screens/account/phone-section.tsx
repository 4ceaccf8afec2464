/** The phone number: bind one, or change the bound one with a code to the new number. */
import { bindPhone, rebindPhone, sendBindPhoneCode, sendRebindCode } from '@edupass/account';
import { checks } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { CodeInput } from '../../ui/account-fields.tsx';
import { PhoneInput } from '../../ui/phone-input.tsx';
import { useRuleError } from '../../ui/validation.ts';
import { useIdentifierChange } from './identifier-change.tsx';

export const PhoneSection = ({ masked, onChanged }: { masked: string; onChanged(): void }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const [oldPhone, setOldPhone] = useState('');
  const [phone, setPhone] = useState('');
  const { action, stepUp, code, sender, setCode, change, endOthersButton, confirmDialog, resumed } =
    useIdentifierChange(onChanged, { form: 'phone', fields: () => ({ phone, oldPhone }) });
  const rebinding = masked !== '';
  // Back from signing in again: the numbers as they were, and the code send goes on.
  useEffect(() => {
    if (!resumed) return;
    setPhone(resumed.fields.phone ?? '');
    setOldPhone(resumed.fields.oldPhone ?? '');
  }, [resumed]);
  const send = rebinding
    ? sender('change', phone, (proof) =>
        sendRebindCode(client, { phone_number: phone, old_phone_number: oldPhone }, proof),
      )
    : sender('bind', phone, (proof) => sendBindPhoneCode(client, { phone_number: phone }, proof));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change(
      async () => {
        if (rebinding) await rebindPhone(client, { phone_number: phone, captcha: code });
        else await bindPhone(client, { phone_number: phone, captcha: code });
        setPhone('');
        setOldPhone('');
      },
      t(rebinding ? 'phone.rebindDone' : 'phone.bindDone'),
    );
  };

  const blocked =
    (rebinding && checks.phone_number(oldPhone)) || checks.phone_number(phone) ? t('code.needPhone') : null;
  return (
    <section className="subsection" aria-labelledby="phone-title">
      <h2 id="phone-title">{t('phone.title')}</h2>
      <p>{rebinding ? t('phone.bound', { phone: masked }) : t('phone.none')}</p>
      {stepUp.panel}
      {/* While "Confirm it is you" is open the form waits behind it: one code field on screen. */}
      <form onSubmit={submit} noValidate hidden={stepUp.panel !== null}>
        {rebinding ? (
          <PhoneInput
            label={t('phone.old')}
            value={oldPhone}
            onValue={setOldPhone}
            error={oldPhone.length >= 11 ? ruleError('phone_number', oldPhone) : null}
            bind={action.field('old_phone_number')}
          />
        ) : null}
        <PhoneInput
          label={rebinding ? t('phone.new') : t('form.phone')}
          value={phone}
          onValue={setPhone}
          error={phone.length >= 11 ? ruleError('phone_number', phone) : null}
          bind={action.field('phone_number')}
        />
        <CodeInput
          value={code}
          onValue={setCode}
          bind={action.field('captcha')}
          blockedReason={blocked}
          onSend={send}
          sendNow={resumed?.step === 'send'}
        />
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        {endOthersButton}
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {rebinding ? t('phone.rebindSubmit') : t('phone.bindSubmit')}
        </button>
      </form>
      {confirmDialog}
    </section>
  );
};

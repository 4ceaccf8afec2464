/** The phone number: bind one, or change the bound one with a code to the new number. */
import { bindPhone, rebindPhone, sendBindPhoneCode, sendRebindCode } from '@edupass/account';
import { endOtherSessions } from '@edupass/account/step-up';
import { checks } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { CodeInput } from '../../ui/account-fields.tsx';
import { useConfirm } from '../../ui/confirm.tsx';
import { PhoneInput } from '../../ui/phone-input.tsx';
import { FormError, Notice } from '../../ui/status.tsx';
import { useStepUp } from '../../ui/step-up.tsx';
import { useAction } from '../../ui/use-action.ts';
import { useSendCode } from '../../ui/use-send-code.ts';
import { useRuleError } from '../../ui/validation.ts';

export const PhoneSection = ({ masked, onChanged }: { masked: string; onChanged(): void }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  const rebinding = masked !== '';
  const [oldPhone, setOldPhone] = useState('');
  const [phone, setPhone] = useState('');
  // After a change, the other sessions may be someone else's: offer to end them.
  const [offerSignOut, setOfferSignOut] = useState(false);
  const { code, setCode, sender } = useSendCode(action, stepUp);
  const send = rebinding
    ? sender('change', phone, (proof) =>
        sendRebindCode(client, { phone_number: phone, old_phone_number: oldPhone }, proof),
      )
    : sender('bind', phone, (proof) => sendBindPhoneCode(client, { phone_number: phone }, proof));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void stepUp.run(async () => {
      if (rebinding) await rebindPhone(client, { phone_number: phone, captcha: code });
      else await bindPhone(client, { phone_number: phone, captcha: code });
      setPhone('');
      setOldPhone('');
      setCode('');
      setOfferSignOut(true);
      onChanged();
      return t(rebinding ? 'phone.rebindDone' : 'phone.bindDone');
    });
  };

  const blocked =
    (rebinding && checks.phone_number(oldPhone)) || checks.phone_number(phone) ? t('code.needPhone') : null;
  return (
    <section className="subsection" aria-labelledby="phone-title">
      <h2 id="phone-title">{t('phone.title')}</h2>
      <p>{rebinding ? t('phone.bound', { phone: masked }) : t('phone.none')}</p>
      {stepUp.panel}
      <form onSubmit={submit} noValidate>
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
        />
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        {offerSignOut ? (
          <button
            type="button"
            className="button secondary"
            onClick={async () => {
              const sure = await confirm.ask({
                title: t('devices.signOutOthersTitle'),
                body: t('devices.signOutOthersAfterChange'),
                confirmLabel: t('stepUp.endOthers'),
              });
              if (!sure) return;
              await action.run(async () => {
                await endOtherSessions(client);
                setOfferSignOut(false);
                return t('stepUp.endOthersDone');
              });
            }}
          >
            {t('stepUp.endOthers')}
          </button>
        ) : null}
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {rebinding ? t('phone.rebindSubmit') : t('phone.bindSubmit')}
        </button>
      </form>
      {confirm.dialog}
    </section>
  );
};

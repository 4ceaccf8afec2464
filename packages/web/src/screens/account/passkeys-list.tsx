/** The account's passkeys: each with its name (renamable) and a remove button, and adding one. */
import {
  type PasskeySummary,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from '@edupass/account/second-factor';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { Field } from '../../ui/field.tsx';
import { createPasskey, passkeysSupported } from '../../ui/passkey.ts';
import { useStepUp } from '../../ui/step-up.tsx';

const PasskeyRow = ({ passkey, onChanged }: { passkey: PasskeySummary; onChanged(): void }) => {
  const { t, locale } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await renamePasskey(client, { id: passkey.id, name });
      setEditing(false);
      onChanged();
    });
  };
  return (
    <li className="passkey">
      {editing ? (
        <form onSubmit={save} noValidate>
          <Field label={t('mfa.passkeyName')} value={name} onValue={setName} maxLength={64} />
          <button type="submit" className="button primary">
            {t('mfa.passkeySave')}
          </button>
        </form>
      ) : (
        <>
          <strong>{passkey.name}</strong>{' '}
          <span className="muted">
            {t('mfa.passkeyCreated', { date: new Date(passkey.created_at).toLocaleDateString(locale) })}
          </span>
          <button type="button" className="button ghost" onClick={() => setEditing(true)}>
            {t('mfa.passkeyRename')}
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={async () => {
              const sure = await confirm.ask({
                title: t('mfa.passkeyRemoveTitle', { name: passkey.name }),
                body: t('mfa.passkeyRemoveBody'),
                confirmLabel: t('mfa.passkeyRemove', { name: passkey.name }),
              });
              if (!sure) return;
              await stepUp.run(async () => {
                await removePasskey(client, { id: passkey.id });
                onChanged();
              });
            }}
          >
            {t('mfa.passkeyRemove', { name: passkey.name })}
          </button>
        </>
      )}
      <FormError message={action.error} onRetry={action.retry} />
      {stepUp.panel}
      {confirm.dialog}
    </li>
  );
};

export const PasskeysList = ({
  passkeys,
  onChanged,
}: {
  passkeys: PasskeySummary[];
  onChanged(codes?: string[]): void;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const [name, setName] = useState(() => t('mfa.passkeyDefaultName'));
  const add = (event: FormEvent) => {
    event.preventDefault();
    void stepUp.run(async () => {
      const response = await createPasskey(await passkeyRegistrationOptions(client));
      const added = await registerPasskey(client, { name: name.trim() || t('mfa.passkeyDefaultName'), response });
      onChanged(added.recovery_codes);
      return t('mfa.passkeyAdded');
    });
  };
  return (
    <div className="factor">
      <h3>{t('mfa.passkeys')}</h3>
      {passkeys.length === 0 ? <p>{t('mfa.passkeysNone')}</p> : null}
      <ul className="passkeys">
        {passkeys.map((passkey) => (
          <PasskeyRow key={passkey.id} passkey={passkey} onChanged={onChanged} />
        ))}
      </ul>
      {passkeysSupported() ? (
        <form onSubmit={add} noValidate>
          <Field label={t('mfa.passkeyName')} value={name} onValue={setName} maxLength={64} />
          <button type="submit" className="button primary" aria-busy={action.busy}>
            {t('mfa.passkeyAdd')}
          </button>
        </form>
      ) : (
        <p className="muted">{t('mfa.passkeyUnsupported')}</p>
      )}
      <FormError message={action.error} onRetry={action.retry} />
      <Notice message={action.notice} />
      {stepUp.panel}
    </div>
  );
};

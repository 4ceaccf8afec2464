/**
 * Two-step verification in the account centre: the authenticator app (QR code, key to type, a code
 * to confirm), passkeys, and recovery codes shown once. Adding or removing a factor asks for a fresh
 * proof first (the step-up panel), as the server requires.
 */
import {
  confirmTotp,
  newRecoveryCodes,
  removeTotp,
  type SecondFactorStatus,
  secondFactorStatus,
  startTotp,
  type TotpSetup,
} from '@edupass/account/second-factor';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { SecondFactorCode } from '../../ui/second-factor-code.tsx';
import { useStepUp } from '../../ui/step-up.tsx';
import { PasskeysList } from './passkeys-list.tsx';

/** Recovery codes just made: the only time they can be read. */
export const RecoveryCodesShown = ({ codes, onDone }: { codes: string[]; onDone(): void }) => {
  const { t } = useI18n();
  return (
    <div className="recovery-codes" role="status">
      <p>{t('mfa.recoveryShown')}</p>
      <ul className="codes" aria-label={t('mfa.recovery')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button secondary" onClick={onDone}>
        {t('mfa.recoveryDone')}
      </button>
    </div>
  );
};

const AppSetup = ({ setup, onConfirmed }: { setup: TotpSetup; onConfirmed(codes: string[] | undefined): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await confirmTotp(client, { code: code.trim() });
      onConfirmed(answer.recovery_codes);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="totp-setup">
      <p>{t('mfa.appScan')}</p>
      <img className="qr" alt={t('mfa.appQr')} src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`} />
      <p>
        {t('mfa.appKey')}: <code className="secret">{setup.secret}</code>
      </p>
      <SecondFactorCode label={t('mfa.appCode')} value={code} onValue={setCode} appOnly />
      <FormError message={action.error} onRetry={action.retry} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {t('mfa.appConfirm')}
      </button>
    </form>
  );
};

const AuthenticatorApp = ({ status, onChanged }: { status: SecondFactorStatus; onChanged(codes?: string[]): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  return (
    <div className="factor">
      <h3>{t('mfa.app')}</h3>
      <p>{t(status.totp ? 'mfa.appOn' : 'mfa.appOff')}</p>
      {setup ? (
        <AppSetup
          setup={setup}
          onConfirmed={(codes) => {
            setSetup(null);
            onChanged(codes);
          }}
        />
      ) : status.totp ? (
        <button
          type="button"
          className="button secondary"
          onClick={async () => {
            const sure = await confirm.ask({
              title: t('mfa.appRemoveTitle'),
              body: t('mfa.appRemoveBody'),
              confirmLabel: t('mfa.appRemove'),
            });
            if (!sure) return;
            await stepUp.run(async () => {
              await removeTotp(client);
              onChanged();
            });
          }}
        >
          {t('mfa.appRemove')}
        </button>
      ) : (
        <button
          type="button"
          className="button primary"
          onClick={() => void stepUp.run(async () => setSetup(await startTotp(client)))}
          aria-busy={action.busy}
        >
          {t('mfa.appSetUp')}
        </button>
      )}
      <FormError message={action.error} onRetry={action.retry} />
      {stepUp.panel}
      {confirm.dialog}
    </div>
  );
};

const RecoveryCodes = ({ left, onNew }: { left: number; onNew(codes: string[]): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const stepUp = useStepUp(action);
  const confirm = useConfirm();
  return (
    <div className="factor">
      <h3>{t('mfa.recovery')}</h3>
      <p>{t('mfa.recoveryLeft', { count: left })}</p>
      <button
        type="button"
        className="button secondary"
        onClick={async () => {
          const sure = await confirm.ask({
            title: t('mfa.recoveryNewTitle'),
            body: t('mfa.recoveryNewBody'),
            confirmLabel: t('mfa.recoveryNew'),
          });
          if (sure) await stepUp.run(async () => onNew((await newRecoveryCodes(client)).recovery_codes));
        }}
      >
        {t('mfa.recoveryNew')}
      </button>
      <FormError message={action.error} onRetry={action.retry} />
      {stepUp.panel}
      {confirm.dialog}
    </div>
  );
};

/** The whole section; `onEnrolled` tells a caller (the console's enrolment) that a factor now exists. */
export const SecondFactorSection = ({ onEnrolled }: { onEnrolled?(): void }) => {
  const { t } = useI18n();
  const status = useLoad(() => secondFactorStatus(client));
  const statusError = useLoadError(status);
  const [shown, setShown] = useState<string[] | null>(null);
  const changed = (codes?: string[]) => {
    if (codes) setShown(codes);
    status.reload();
  };
  const data = status.data;
  const enrolled = data ? data.totp || data.passkeys.length > 0 : false;
  return (
    <section className="subsection" aria-labelledby="mfa-title">
      <h2 id="mfa-title">{t('mfa.title')}</h2>
      <p className="muted">{t(data?.required ? 'mfa.required' : 'mfa.intro')}</p>
      <FormError {...statusError} />
      {shown ? <RecoveryCodesShown codes={shown} onDone={() => setShown(null)} /> : null}
      {data ? (
        <>
          <AuthenticatorApp status={data} onChanged={changed} />
          <PasskeysList passkeys={data.passkeys} onChanged={changed} />
          {enrolled ? <RecoveryCodes left={data.recovery_codes_left} onNew={setShown} /> : null}
          {enrolled && onEnrolled && !shown ? (
            <button type="button" className="button primary" onClick={onEnrolled}>
              {t('mfa.continue')}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
};
